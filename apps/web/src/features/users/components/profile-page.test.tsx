import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { ACCOUNT_MESSAGES, EMAIL_TAKEN_ERROR } from '@skillhive/shared/rules/messages';
import { createQueryClient } from '../../../lib/query-client.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { signUp } from '../../../test/real-api.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { ProfilePage } from './profile-page.tsx';

const browser = browserOnRealServer();
let queryClient: QueryClient;

describe('ProfilePage', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it("shows the reader's own profile, then the settings' cards from their own chunk", async () => {
    const person = await signUp(browser.server, 'Pat Profile');
    await browser.signIn(person);
    renderSignedInPage(queryClient, { path: '/dashboard/profile', element: <ProfilePage /> });

    const card = (await screen.findByText('Pat Profile', { selector: 'dd' })).closest('dl');
    expect(card).toBeTruthy();
    expect(within(card as HTMLElement).getByText(person.email)).toBeTruthy();
    expect(within(card as HTMLElement).getByText('Student')).toBeTruthy();

    for (const title of [
      'Edit profile',
      'E-mail address',
      'Change password',
      'Signed-in devices',
      'E-mail notifications',
      'Notification centre',
      'Delete account',
    ]) {
      expect(await screen.findByRole('region', { name: title })).toBeTruthy();
    }
    expect(screen.queryByText('Loading your account settings...')).toBeNull();
  });

  it('explains a change-of-address link that came back because the address was taken meanwhile', async () => {
    const person = await signUp(browser.server, 'Cas Contested');
    await browser.signIn(person);
    renderSignedInPage(queryClient, {
      path: `/dashboard/profile?error=${EMAIL_TAKEN_ERROR}`,
      element: <ProfilePage />,
    });
    const section = await screen.findByRole('region', { name: 'E-mail address' });
    expect(await within(section).findByText(ACCOUNT_MESSAGES.changeEmailTaken)).toBeTruthy();
    expect(within(section).getByText(person.email)).toBeTruthy();
  });

  it('changes the e-mail only with the current password, whose refusal shows under its field', async () => {
    const person = await signUp(browser.server, 'Pam Password');
    await browser.signIn(person);
    renderSignedInPage(queryClient, { path: '/dashboard/profile', element: <ProfilePage /> });
    const section = await screen.findByRole('region', { name: 'E-mail address' });
    const newEmail = `moved-${person.email}`;
    fireEvent.change(within(section).getByLabelText('New e-mail address'), { target: { value: newEmail } });
    const password = within(section).getByLabelText('Current password');
    fireEvent.change(password, { target: { value: 'Not-it1!' } });
    await act(async () => fireEvent.click(within(section).getByRole('button', { name: 'Change e-mail' })));
    // The real server checked the password and refused it with its own message.
    expect(await within(section).findByText(ACCOUNT_MESSAGES.wrongPassword)).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(password, { target: { value: person.password } });
    await act(async () => fireEvent.click(within(section).getByRole('button', { name: 'Change e-mail' })));
    expect(
      await within(section).findByText(`We sent a link to ${newEmail}. Your address changes when you follow it.`),
    ).toBeTruthy();
  });

  it('says a refused change-of-address link did not work, for any other reason', async () => {
    const person = await signUp(browser.server, 'Ivy Invalid');
    await browser.signIn(person);
    renderSignedInPage(queryClient, { path: '/dashboard/profile?error=INVALID_TOKEN', element: <ProfilePage /> });
    const section = await screen.findByRole('region', { name: 'E-mail address' });
    expect(await within(section).findByText(ACCOUNT_MESSAGES.changeEmailLinkFailed)).toBeTruthy();
  });
});
