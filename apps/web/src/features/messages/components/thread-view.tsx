import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ThreadDetail } from '@skillhive/shared/contracts/messages';
import { MESSAGE_BODY_MAX } from '@skillhive/shared/rules/constants';
import { MessageFormBody } from '@skillhive/shared/rules/message-form';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { TextareaField } from '../../../components/ui/form-field.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { messageKeys, threadQueryOptions, useReply } from '../api/messages.ts';

/** A "Report" control for a message (decision 043), given by the route: this feature only places it. */
export type RenderReport = (target: {
  targetType: 'message';
  targetId: string;
  label: string;
  ownerId?: string | undefined;
}) => ReactNode;

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * /dashboard/messages/:id (decision 045): a conversation, oldest message first, and the answer
 * form for its two people (an admin reads it from the report queue). Messages are text: React
 * shows markup in them as typed. Each message of the other side can be reported (decision 043).
 */
export function ThreadView({ threadId, renderReport }: { threadId: string; renderReport: RenderReport }) {
  const user = useUserScope();
  const queryClient = useQueryClient();
  const query = useQuery(threadQueryOptions(user, threadId));
  // Reading a thread marks it read: the inbox's "New" is read again.
  useEffect(() => {
    if (query.isSuccess) void queryClient.invalidateQueries({ queryKey: messageKeys.threads(user?.id ?? '') });
  }, [query.isSuccess, query.dataUpdatedAt, queryClient, user?.id]);
  return (
    <div className="flex flex-col gap-5">
      <title>Conversation — SkillHive</title>
      <Link to={paths.dashboard.messages} className="link self-start">
        All messages
      </Link>
      <QueryState query={query} what="the conversation">
        {(thread) => <Conversation thread={thread} viewerId={user?.id ?? ''} renderReport={renderReport} />}
      </QueryState>
    </div>
  );
}

function Conversation({
  thread,
  viewerId,
  renderReport,
}: {
  thread: ThreadDetail;
  viewerId: string;
  renderReport: RenderReport;
}) {
  const isParty = viewerId === thread.student._id || viewerId === thread.teacher._id;
  const other = viewerId === thread.teacher._id ? thread.student : thread.teacher;
  const nameOf = (id: string | null) =>
    id === viewerId ? 'You' : id === thread.teacher._id ? thread.teacher.name : thread.student.name;
  return (
    <>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold break-words sm:text-3xl">
          {isParty ? other.name : `${thread.student.name} and ${thread.teacher.name}`}
        </h1>
        <p className="text-muted break-words">
          About{' '}
          <Link to={paths.classPage(thread.classId)} className="link">
            {thread.classTitle}
          </Link>
        </p>
      </div>
      <ol className="flex flex-col gap-3" aria-label="Messages">
        {thread.messages.map((message) => {
          const mine = message.senderId === viewerId;
          return (
            <li
              key={message._id}
              className={`flex max-w-[85%] flex-col gap-1 rounded-box p-3 ${mine ? 'self-end bg-primary/10' : 'self-start bg-base-200'}`}
            >
              <span className="text-sm text-muted">
                <span className="font-semibold">{nameOf(message.senderId)}</span> ·{' '}
                <time dateTime={message.createdAt}>{dateFormat.format(new Date(message.createdAt))}</time>
              </span>
              {message.hidden ? (
                <p className="italic text-muted">An admin hid this message.</p>
              ) : (
                <p className="whitespace-pre-line break-words">{message.body}</p>
              )}
              {!mine && !message.hidden && isParty ? (
                <div className="self-start">
                  {renderReport({
                    targetType: 'message',
                    targetId: message._id,
                    label: `the message from ${nameOf(message.senderId)}`,
                    ownerId: message.senderId ?? undefined,
                  })}
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>
      {isParty ? <ReplyForm threadId={thread._id} /> : null}
    </>
  );
}

function ReplyForm({ threadId }: { threadId: string }) {
  const reply = useReply(threadId);
  const hintId = useId();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = MessageFormBody.safeParse({ body });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    reply.mutate(parsed.data.body, {
      onSuccess: () => setBody(''),
      onError: (failure) => notify.error(errorMessage(failure)),
    });
  };
  return (
    <form className="flex flex-col gap-2" noValidate onSubmit={submit} aria-describedby={hintId}>
      <TextareaField
        label="Your answer"
        rows={4}
        maxLength={MESSAGE_BODY_MAX}
        value={body}
        error={error}
        onChange={(event) => setBody(event.target.value)}
      />
      <p id={hintId} className="text-sm text-muted">
        Keep payment on SkillHive: messages with links, e-mail addresses or phone numbers are checked by our admins.
      </p>
      <BusyButton type="submit" busy={reply.isPending} className="btn-primary self-start">
        Send
      </BusyButton>
    </form>
  );
}
