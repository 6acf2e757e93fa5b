import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { ACCOUNT_MESSAGES } from '@skillhive/shared/rules/messages';
import { createQueryClient } from '../../../lib/query-client.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { Device, deviceOf, signUp, type Person } from '../../../test/real-api.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';

const browser = browserOnRealServer();
let queryClient: QueryClient;

/** A verified person (signed up through the API, with a password), signed in in this browser. */
async function signedInPerson(): Promise<Person> {
  const person = await signUp(browser.server, 'Dee Leaving');
  await browser.signIn(person);
  return person;
}

/**
 * The bodies the page sent with DELETE /api/users/me, read off the browser's network as they went
 * out (a pass-through spy: the real server still answers every request).
 */
function watchDeletes(): () => unknown[] {
  const fetchSpy = vi.spyOn(globalThis, 'fetch');
  return () =>
    fetchSpy.mock.calls.flatMap(([input, init]) => {
      const url = new URL(input instanceof Request ? input.url : String(input), window.location.origin);
      if (init?.method?.toUpperCase() !== 'DELETE' || url.pathname !== '/api/users/me') return [];
      return [typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body];
    });
}

async function openDialog() {
  renderSignedInPage(queryClient, { path: '/dashboard/profile', element: <DeleteAccountSection /> }, [
    { path: '/', element: <p>Home page</p> },
  ]);
  fireEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
  return screen.findByRole('dialog', { name: 'Delete your account?' });
}

const confirm = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Delete my account' });

/** The session this browser's cookie names, asked of the server (null once it has ended). */
async function sessionHere(): Promise<unknown> {
  return (await browser.request('GET', '/api/auth/get-session')).body;
}

describe('DeleteAccountSection', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('shows the wrong password under the field and stays open', async () => {
    const person = await signedInPerson();
    const sent = watchDeletes();
    const dialog = await openDialog();
    const password = within(dialog).getByLabelText('Password');
    fireEvent.change(password, { target: { value: 'Not-it1!' } });
    await act(async () => fireEvent.click(confirm(dialog)));
    // The real server checked the password and refused it with its own message.
    expect(await within(dialog).findByText(ACCOUNT_MESSAGES.wrongPassword)).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(sent()).toEqual([{ password: 'Not-it1!' }]);
    expect((dialog as HTMLDialogElement).open).toBe(true);
    // The account is still there: the session holds and the right password still signs in.
    expect(await sessionHere()).toMatchObject({ user: { email: person.email } });
    expect((await deviceOf(browser.server, person)).token).toBeTruthy();
  });

  it("sends no password when the field is empty and shows the server's field message", async () => {
    const person = await signedInPerson();
    const sent = watchDeletes();
    const dialog = await openDialog();
    await act(async () => fireEvent.click(confirm(dialog)));
    // The account has a password, so the real server answers 400 with its field message.
    expect(await within(dialog).findByText(ACCOUNT_MESSAGES.passwordField)).toBeTruthy();
    expect(within(dialog).getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    expect(sent()).toEqual([{}]);
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(await sessionHere()).toMatchObject({ user: { email: person.email } });
  });

  it('deletes with the password, waits with the button busy, then leaves for the home page', async () => {
    const person = await signedInPerson();
    // Another device of theirs, signed in before the deletion.
    const otherDevice = await deviceOf(browser.server, person);
    const sent = watchDeletes();
    const release = browser.hold((method, path) => method === 'DELETE' && path === '/api/users/me');
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: person.password } });
    await act(async () => fireEvent.click(confirm(dialog)));
    await waitFor(() => expect(browser.requests).toContain('DELETE /api/users/me'));
    expect(sent()).toEqual([{ password: person.password }]);
    expect((confirm(dialog) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());
    expect(await screen.findByText('Home page')).toBeTruthy();

    // What the server holds now: no account. This browser's session is gone, the other device's
    // too, and the password no longer signs in.
    expect(await sessionHere()).toBeNull();
    expect((await otherDevice.call('GET', '/api/users/me/sessions')).status).toBe(401);
    const again = await new Device(browser.server).call<{ message?: string }>('POST', '/api/auth/sign-in/email', {
      email: person.email,
      password: person.password,
    });
    expect(again.status).toBe(401);
  });
});
