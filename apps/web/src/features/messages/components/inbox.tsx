import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { paths } from '../../../config/paths.ts';
import { Avatar } from '../../../components/ui/fallback-image.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { EmptyState } from '../../../components/ui/status-states.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { threadsQueryOptions } from '../api/messages.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * /dashboard/messages (decision 045): a person's conversations, as the one asking and as the
 * teacher, latest first, unread ones marked. The other side is a name and a photo only.
 */
export function Inbox() {
  const user = useUserScope();
  const query = useQuery(threadsQueryOptions(user));
  return (
    <div className="flex flex-col gap-5">
      <title>Messages — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Messages</h1>
        <p className="text-muted">Questions to teachers and their answers, one conversation per class.</p>
      </div>
      <QueryState query={query} what="messages">
        {(threads) =>
          threads.length === 0 ? (
            <EmptyState title="No messages yet">
              <p className="text-muted">Ask a teacher a question from a class page: the conversation appears here.</p>
            </EmptyState>
          ) : (
            <ul className="flex flex-col gap-2" aria-label="Conversations">
              {threads.map((thread) => (
                <li key={thread._id}>
                  <Link
                    to={paths.dashboard.messageThread(thread._id)}
                    className={`flex min-w-0 items-center gap-3 rounded-box p-3 hover:bg-base-200 ${thread.unread ? 'bg-base-200 font-semibold' : ''}`}
                  >
                    <Avatar
                      size={40}
                      src={thread.other.image}
                      className="h-10 w-10 shrink-0 rounded-full object-cover"
                    />
                    <span className="flex min-w-0 flex-1 flex-col">
                      <span className="flex flex-wrap items-center gap-2 break-words">
                        {thread.other.name}
                        <span className="text-sm font-normal text-muted">
                          {thread.role === 'teacher' ? 'asks about' : 'teaches'} {thread.classTitle}
                        </span>
                        {thread.unread ? <span className="badge badge-primary badge-sm">New</span> : null}
                      </span>
                      <span className="truncate text-sm font-normal">{thread.lastMessagePreview}</span>
                    </span>
                    <time
                      dateTime={thread.lastMessageAt}
                      className="hidden shrink-0 text-sm font-normal text-muted sm:block"
                    >
                      {dateFormat.format(new Date(thread.lastMessageAt))}
                    </time>
                  </Link>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </div>
  );
}
