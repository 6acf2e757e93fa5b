import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { ACCOUNT_MESSAGES } from '@skillhive/shared/rules/messages';
import { createQueryClient } from '../../../lib/query-client.ts';
import { apiError, createFakeApi, json, serveSignedIn, type FakeApi } from '../../../test/fake-api.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';

const USER = { id: 'u-dee', email: 'dee@example.test', name: 'Dee Leaving' };

// jsdom has <dialog> but not its modal methods: open and close it as a browser would.
beforeAll(() => {
  const dialog = HTMLDialogElement.prototype;
  if (typeof dialog.showModal !== 'function')
    dialog.showModal = function (this: HTMLDialogElement) {
      this.open = true;
    };
  if (typeof dialog.close !== 'function')
    dialog.close = function (this: HTMLDialogElement) {
      this.open = false;
      this.dispatchEvent(new Event('close'));
    };
});

let api: FakeApi;
let queryClient: QueryClient;
let sent: unknown[];

async function openDialog() {
  renderSignedInPage(queryClient, { path: '/dashboard/profile', element: <DeleteAccountSection /> }, [
    { path: '/', element: <p>Home page</p> },
  ]);
  fireEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
  return screen.getByRole('dialog', { name: 'Delete your account?' });
}

const confirm = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Delete my account' });

describe('DeleteAccountSection', () => {
  beforeEach(() => {
    sent = [];
    api = serveSignedIn(createFakeApi(), USER);
    vi.stubGlobal('fetch', api.fetch);
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
    vi.unstubAllGlobals();
  });

  it('shows the wrong password under the field and stays open', async () => {
    api.on('DELETE', '/api/users/me', ({ body }) => {
      sent.push(body);
      return apiError(403, 'forbidden', ACCOUNT_MESSAGES.wrongPassword);
    });
    const dialog = await openDialog();
    const password = within(dialog).getByLabelText('Password');
    fireEvent.change(password, { target: { value: 'Not-it1!' } });
    await act(async () => fireEvent.click(confirm(dialog)));
    expect(await within(dialog).findByText(ACCOUNT_MESSAGES.wrongPassword)).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([{ password: 'Not-it1!' }]);
    expect((dialog as HTMLDialogElement).open).toBe(true);
  });

  it("sends no password when the field is empty and shows the server's field message", async () => {
    api.on('DELETE', '/api/users/me', ({ body }) => {
      sent.push(body);
      return json(
        {
          error: {
            code: 'validation_error',
            message: ACCOUNT_MESSAGES.passwordRequired,
            fields: { password: ACCOUNT_MESSAGES.passwordField },
          },
          requestId: 'r1',
        },
        { status: 400 },
      );
    });
    const dialog = await openDialog();
    await act(async () => fireEvent.click(confirm(dialog)));
    expect(await within(dialog).findByText(ACCOUNT_MESSAGES.passwordField)).toBeTruthy();
    expect(sent).toEqual([{}]);
  });

  it('deletes with the password, waits with the button busy, then leaves for the home page', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api.on('DELETE', '/api/users/me', async ({ body }) => {
      sent.push(body);
      await held;
      return json({ deletedCount: 1 });
    });
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Right-1!' } });
    await act(async () => fireEvent.click(confirm(dialog)));
    await waitFor(() => expect(sent).toEqual([{ password: 'Right-1!' }]));
    expect((confirm(dialog) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());
    expect(await screen.findByText('Home page')).toBeTruthy();
  });
});
