import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { buildApiUrl } from '../../../lib/api-client.ts';
import type { UserScope } from '../../../lib/query-client.ts';
import { notificationKeys } from './notifications.ts';

/** After the server refused the stream (signed out, too many tabs), the next try waits this long. */
const REFUSED_RETRY_MS = 30_000;

/**
 * Keeps the notification centre live (decision 047): an EventSource on GET /api/notifications/stream
 * (the session cookie authenticates it); each new item reads the lists and the count again. The
 * browser reconnects by itself after a dropped connection, sending Last-Event-ID, so nothing is
 * lost; a refused stream (an error answer ends EventSource for good) is opened again later, after
 * the last item seen.
 */
export function useLiveNotifications(user: UserScope | null): void {
  const queryClient = useQueryClient();
  const userId = user?.id ?? null;
  useEffect(() => {
    if (!userId || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let lastId: string | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let hasOpened = false;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all(userId) });
    const connect = () => {
      source = new EventSource(buildApiUrl('/notifications/stream', lastId ? { after: lastId } : undefined), {
        withCredentials: true,
      });
      source.addEventListener('notification', (event) => {
        lastId = event.lastEventId || lastId;
        refresh();
      });
      source.addEventListener('open', () => {
        // Back after a break: items read in another tab meanwhile change the count too.
        if (hasOpened) refresh();
        hasOpened = true;
      });
      source.addEventListener('error', () => {
        if (stopped || source?.readyState !== EventSource.CLOSED) return;
        source.close();
        retry = setTimeout(connect, REFUSED_RETRY_MS);
      });
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [queryClient, userId]);
}
