import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useDismiss } from '../../../components/layout/use-dismiss.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { notificationsQueryOptions } from '../api/notifications.ts';
import { useLiveNotifications } from '../api/use-live-notifications.ts';
import { MarkAllReadButton, NotificationList } from './notification-list.tsx';

/** "Notifications, 3 unread": the bell's name says the count, which the badge only shows. */
export function bellLabel(unread: number | undefined): string {
  return unread === undefined ? 'Notifications' : `Notifications, ${unread} unread`;
}

/**
 * The navbar's bell (decision 047): the unread count, live through the stream; it opens a panel of
 * the newest items with "Mark all read" and a link to all of them. Loaded after the page (the app
 * layout imports it lazily), so public pages keep their first-load budget (decision 005).
 */
export default function NotificationBell() {
  const user = useUserScope();
  useLiveNotifications(user);
  const query = useQuery(notificationsQueryOptions(user));
  const unread = query.data?.unread;
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const container = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, container, trigger);

  // Said once when the count grows while the page is open (a name change alone is not announced).
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (unread !== undefined && previous.current !== undefined && unread > previous.current) {
      setAnnouncement(`${unread} unread ${unread === 1 ? 'notification' : 'notifications'}`);
    }
    previous.current = unread;
  }, [unread]);

  return (
    <div ref={container} className="relative">
      <button
        ref={trigger}
        type="button"
        className="btn btn-ghost btn-circle relative"
        aria-label={bellLabel(unread)}
        aria-expanded={open}
        aria-controls={panelId}
        data-testid="nav-bell"
        onClick={() => setOpen((value) => !value)}
      >
        <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true" focusable="false">
          <path
            d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15zM10 20.5a2 2 0 0 0 4 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {unread ? (
          <span className="badge badge-primary badge-sm absolute -right-1 -top-1 whitespace-nowrap" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </button>
      <span className="sr-only" aria-live="polite">
        {announcement}
      </span>
      {open ? (
        <section
          id={panelId}
          aria-label="Notifications"
          className="fixed inset-x-2 top-16 z-50 flex max-h-[75vh] flex-col gap-2 overflow-y-auto rounded-box border border-base-300 bg-base-100 p-3 shadow-lg sm:absolute sm:inset-x-auto sm:right-0 sm:top-full sm:mt-2 sm:w-96"
        >
          <div className="flex items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">Notifications</h2>
            <MarkAllReadButton unread={unread ?? 0} />
          </div>
          {query.isError ? (
            <p role="alert">Your notifications could not be loaded.</p>
          ) : !query.data ? (
            <span className="loading loading-spinner" aria-label="Loading notifications" />
          ) : query.data.items.length === 0 ? (
            <p className="text-muted">Nothing yet: what happens to you on SkillHive shows here.</p>
          ) : (
            <NotificationList items={query.data.items} label="Latest notifications" onFollow={close} />
          )}
          <Link to={paths.dashboard.notifications} className="link self-start" onClick={close}>
            See all notifications
          </Link>
        </section>
      ) : null}
    </div>
  );
}
