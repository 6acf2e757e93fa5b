import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { appConfigQueryOptions, type AppConfig } from '../../auth/api/get-app-config.ts';
import { Mailbox } from './mailbox.tsx';

/**
 * The admin's Mailbox against the real server: where the server keeps one (development, no
 * SMTP_URL) it lists the mail written so far; where it keeps none (production or a mail server),
 * the page says so and leads back, instead of asking for a mailbox that is not there.
 */

const browser = browserOnRealServer();
let queryClient: QueryClient;

async function signInAsAdmin() {
  await browser.signIn(browser.server.admin);
}

describe('the mailbox page', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('lists the mail the server wrote when it keeps a mailbox', async () => {
    await signInAsAdmin();
    renderSignedInPage(queryClient, { path: paths.dashboard.mailbox, element: <Mailbox /> });
    expect(await screen.findByRole('list', { name: 'E-mails' })).toBeTruthy();
    expect(screen.getByText(/Set SMTP_URL to send them/)).toBeTruthy();
  });

  it('says the server sends its mail, and leads back, when it keeps none', async () => {
    await signInAsAdmin();
    const served = (await browser.request('GET', '/api/config')).body as AppConfig;
    expect(served.mailbox).toBe(true);
    // The same server's answer as a production server gives it (app.ts: no mailbox in production).
    queryClient.setQueryData(appConfigQueryOptions().queryKey, { ...served, mailbox: false });
    renderSignedInPage(queryClient, { path: paths.dashboard.mailbox, element: <Mailbox /> });
    expect(await screen.findByRole('heading', { name: 'This server sends its e-mail' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Admin Home' }).getAttribute('href')).toBe(
      paths.dashboard.adminHome,
    );
    expect(screen.queryByRole('list', { name: 'E-mails' })).toBeNull();
    expect(screen.queryByText(/Set SMTP_URL/)).toBeNull();
  });
});
