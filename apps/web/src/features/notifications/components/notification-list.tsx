import { Link } from 'react-router';
import type { NotificationItem } from '@skillhive/shared/contracts/notifications';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { useMarkRead } from '../api/notifications.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Notifications, newest first (decision 047): each links to what it is about and is read when
 * followed; an unread one says so in words as well as in weight, and can be marked read in place.
 * Titles and texts are plain text (React escapes them).
 */
export function NotificationList({
  items,
  label,
  onFollow,
}: {
  items: NotificationItem[];
  label: string;
  /** Called when a link is followed (the bell's panel closes). */
  onFollow?: () => void;
}) {
  const markRead = useMarkRead();
  const read = (id: string) =>
    markRead.mutate(
      { id },
      {
        onError: (error) => notify.error(errorMessage(error, 'The notification could not be marked read.')),
      },
    );
  return (
    <ul className="flex flex-col gap-1" aria-label={label}>
      {items.map((item) => {
        const unread = item.readAt === null;
        return (
          <li
            key={item._id}
            className={`flex items-start gap-2 rounded-box p-2 ${unread ? 'bg-base-200' : ''}`}
            data-testid="notification"
          >
            <Link
              to={item.link}
              className="flex min-w-0 flex-1 flex-col gap-0.5 rounded-field hover:underline"
              onClick={() => {
                if (unread) read(item._id);
                onFollow?.();
              }}
            >
              <span className={`break-words ${unread ? 'font-semibold' : ''}`}>
                {unread ? <span className="sr-only">Unread: </span> : null}
                {item.title}
              </span>
              {item.body ? <span className="line-clamp-2 break-words text-sm text-muted">{item.body}</span> : null}
              <time dateTime={item.createdAt} className="text-xs text-muted">
                {dateFormat.format(new Date(item.createdAt))}
              </time>
            </Link>
            {unread ? (
              <button
                type="button"
                className="btn btn-ghost btn-xs shrink-0"
                aria-label={`Mark read: ${item.title}`}
                onClick={() => read(item._id)}
              >
                Mark read
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** "Mark all read", shown while something is unread. */
export function MarkAllReadButton({ unread }: { unread: number }) {
  const markRead = useMarkRead();
  if (unread === 0) return null;
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm"
      disabled={markRead.isPending}
      onClick={() =>
        markRead.mutate('all', {
          onError: (error) => notify.error(errorMessage(error, 'Your notifications could not be marked read.')),
        })
      }
    >
      Mark all read
    </button>
  );
}
