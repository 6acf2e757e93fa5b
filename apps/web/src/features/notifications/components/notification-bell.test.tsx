import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient } from '../../../lib/query-client.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { deviceOf, signUp } from '../../../test/real-api.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import NotificationBell from './notification-bell.tsx';

const browser = browserOnRealServer();
let queryClient: QueryClient;

describe('NotificationBell', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('names the unread count, lists the newest in its panel, and marks them read', async () => {
    const person = await signUp(browser.server, 'Nia Notified');
    const asking = await deviceOf(browser.server, person);
    const { threadId } = await asking.ok<{ threadId: string }>(
      'POST',
      `/api/classes/${browser.server.classes['Ink drawing']}/messages`,
      { body: 'Which ink should I buy?' },
    );
    const teacher = await deviceOf(browser.server, { ...browser.server.teacher, id: '', name: '' });
    await teacher.ok('POST', `/api/messages/threads/${threadId}/messages`, { body: 'Any <b>India</b> ink.' });

    await browser.signIn(person);
    renderSignedInPage(queryClient, { path: '/dashboard', element: <NotificationBell /> });
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(bell.getAttribute('aria-expanded')).toBe('false');
    await act(async () => fireEvent.click(bell));
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('region', { name: 'Notifications' });
    const link = within(panel).getByRole('link', { name: /wrote about Ink drawing/ });
    expect(link.getAttribute('href')).toBe(`/dashboard/messages/${threadId}`);
    // Plain text: the markup is shown as typed.
    expect(link.textContent).toContain('Any <b>India</b> ink.');
    expect(panel.querySelector('b')).toBeNull();
    expect(within(panel).getByRole('link', { name: 'See all notifications' }).getAttribute('href')).toBe(
      '/dashboard/notifications',
    );

    await act(async () => fireEvent.click(within(panel).getByRole('button', { name: 'Mark all read' })));
    expect(await screen.findByRole('button', { name: 'Notifications, 0 unread' })).toBeTruthy();
    // The server says so too.
    const stored = await asking.ok<{ unread: number }>('GET', '/api/notifications');
    expect(stored.unread).toBe(0);

    // Escape closes the panel and gives the focus back to the bell.
    await act(async () => fireEvent.keyDown(document, { key: 'Escape' }));
    expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Notifications, 0 unread' }));
  });
});
