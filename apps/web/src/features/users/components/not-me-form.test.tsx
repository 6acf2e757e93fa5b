import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { ACCOUNT_MESSAGES } from '@skillhive/shared/rules/messages';
import { createQueryClient } from '../../../lib/query-client.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { signUp } from '../../../test/real-api.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { NotMeForm } from './not-me-form.tsx';

const browser = browserOnRealServer();
let queryClient: QueryClient;

describe('NotMeForm', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('acts only on the button, and shows the real server refusing a used or unknown link', async () => {
    const person = await signUp(browser.server, 'Nora Notme');
    await browser.signIn(person);
    renderSignedInPage(queryClient, { path: '/not-me', element: <NotMeForm token={'x'.repeat(43)} /> });
    const button = await screen.findByRole('button', { name: 'Sign out everywhere and undo' });
    await act(async () => fireEvent.click(button));
    expect(await screen.findByText(ACCOUNT_MESSAGES.notMeLinkFailed)).toBeTruthy();
  });

  it('says an incomplete link is incomplete', async () => {
    const person = await signUp(browser.server, 'Nick Notoken');
    await browser.signIn(person);
    renderSignedInPage(queryClient, { path: '/not-me', element: <NotMeForm token={null} /> });
    expect(await screen.findByText('This link is incomplete. Open it again from the mail.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
