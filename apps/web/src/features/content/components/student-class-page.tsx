import { useId, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ClassMaterial, ClassSession } from '@skillhive/shared/contracts/content';
import { paths } from '../../../config/paths.ts';
import { errorMessage, isApiError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { classContentQueryOptions, useMarkProgress, type ContentKind } from '../api/content.ts';
import { ClassAnnouncements } from './announcements.tsx';
import { formatBytes, formatDuration, formatSessionStart } from '../../../lib/session-time.ts';

/**
 * myEnrollClass/:id (decision 021): a paid class as its student opens it — upcoming and past
 * sessions in the viewer's own time zone, the meeting link while it is open, materials to
 * download, progress checkboxes and the calendar file.
 */
export function StudentClassPage({ classId }: { classId: string }) {
  const query = useQuery(classContentQueryOptions(useUserScope(), classId));
  // Not paid (or refunded): a business refusal that a retry will not change; the way on is the class.
  if (isApiError(query.error) && query.error.status === 409) {
    return (
      <div
        role="alert"
        className="flex flex-col items-start gap-3 rounded-box border border-warning/50 bg-base-100 p-5"
      >
        <p className="font-medium">{query.error.message}</p>
        <div className="flex flex-wrap gap-2">
          <Link to={paths.classPage(classId)} className="btn btn-sm btn-primary">
            See the class
          </Link>
          <Link to={paths.dashboard.myEnrollClass} className="btn btn-sm btn-ghost">
            My enrolled classes
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <QueryState query={query} what="the class">
        {(content) => {
          // "Now" is when the content was read (refetched every minute): rendering stays pure.
          const now = query.dataUpdatedAt;
          const upcoming = content.sessions.filter((s) => new Date(s.endsAt).getTime() >= now);
          const past = content.sessions.filter((s) => new Date(s.endsAt).getTime() < now);
          return (
            <>
              <title>{`${content.title} — SkillHive`}</title>
              <div className="flex flex-col gap-2">
                <Link to={paths.dashboard.myEnrollClass} className="link text-sm">
                  ← My enrolled classes
                </Link>
                <h1 className="text-2xl font-bold break-words sm:text-3xl">{content.title}</h1>
                <p className="text-muted">
                  Times are shown in your time zone ({Intl.DateTimeFormat().resolvedOptions().timeZone}).{' '}
                  <a href={content.calendarUrl} className="link" download>
                    Add the sessions to your calendar (.ics)
                  </a>
                </p>
              </div>
              <ClassAnnouncements classId={classId} />
              <SessionList
                classId={classId}
                heading="Upcoming sessions"
                sessions={upcoming}
                now={now}
                empty="No upcoming sessions."
              />
              <SessionList
                classId={classId}
                heading="Past sessions"
                sessions={past}
                now={now}
                empty="No past sessions yet."
              />
              <section aria-labelledby="materials-heading" className="flex flex-col gap-3">
                <h2 id="materials-heading" className="text-xl font-semibold">
                  Materials
                </h2>
                {content.materials.length === 0 ? (
                  <p className="text-muted">No materials yet.</p>
                ) : (
                  <ul className="flex flex-col gap-2">
                    {content.materials.map((material) => (
                      <MaterialItem key={material._id} classId={classId} material={material} />
                    ))}
                  </ul>
                )}
              </section>
            </>
          );
        }}
      </QueryState>
    </div>
  );
}

function SessionList(props: {
  classId: string;
  heading: string;
  sessions: ClassSession[];
  now: number;
  empty: string;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold">
        {props.heading}
      </h2>
      {props.sessions.length === 0 ? (
        <p className="text-muted">{props.empty}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {props.sessions.map((session) => (
            <SessionItem key={session._id} classId={props.classId} session={session} now={props.now} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SessionItem({ classId, session, now }: { classId: string; session: ClassSession; now: number }) {
  const titleId = useId();
  const started = new Date(session.startsAt).getTime() <= now;
  return (
    <ContentItem titleId={titleId} title={session.title} testId="student-session">
      <p className="text-sm">
        <time dateTime={session.startsAt}>{formatSessionStart(session.startsAt)}</time> ·{' '}
        {formatDuration(session.durationMinutes)}
        {session.location ? ` · ${session.location}` : ''}
      </p>
      {session.meetingUrl ? (
        <a
          href={session.meetingUrl}
          className="btn btn-primary btn-sm self-start"
          target="_blank"
          rel="noreferrer noopener"
        >
          Join the meeting
        </a>
      ) : session.hasMeetingUrl && new Date(session.endsAt).getTime() > now ? (
        <p className="text-sm text-muted">
          The meeting link appears here from{' '}
          <time dateTime={session.meetingUrlOpensAt}>{formatSessionStart(session.meetingUrlOpensAt)}</time>.
        </p>
      ) : null}
      <ProgressCheckbox
        key={String(session.attended)}
        classId={classId}
        kind="session"
        id={session._id}
        done={session.attended === true}
        disabled={!started}
        describedBy={titleId}
      >
        {started ? 'I attended this session' : 'You can mark it attended once it has started'}
      </ProgressCheckbox>
    </ContentItem>
  );
}

/**
 * The student's own mark, shown at once and saved behind it; a refusal puts it back and says why.
 */
function ProgressCheckbox(props: {
  classId: string;
  kind: ContentKind;
  id: string;
  done: boolean;
  disabled?: boolean;
  describedBy: string;
  children: ReactNode;
}) {
  const mark = useMarkProgress(props.classId);
  // Its parent keys it by the stored mark, so a refetch with another value starts it afresh.
  const [shown, setShown] = useState(props.done);
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        className="checkbox checkbox-sm"
        aria-describedby={props.describedBy}
        checked={shown}
        disabled={props.disabled}
        onChange={(event) => {
          const done = event.target.checked;
          setShown(done);
          mark.mutate(
            { kind: props.kind, id: props.id, done },
            {
              onError: (error) => {
                setShown(!done);
                notify.error(errorMessage(error, 'Your mark could not be saved.'));
              },
            },
          );
        }}
      />
      {props.children}
    </label>
  );
}

function MaterialItem({ classId, material }: { classId: string; material: ClassMaterial }) {
  const titleId = useId();
  return (
    <ContentItem titleId={titleId} title={material.title} testId="student-material">
      {material.kind === 'file' ? (
        <a href={material.url} className="btn btn-outline btn-sm self-start" download aria-describedby={titleId}>
          Download {material.fileName} ({formatBytes(material.bytes)})
        </a>
      ) : (
        <a
          href={material.url}
          className="link break-all"
          target="_blank"
          rel="noreferrer noopener"
          aria-describedby={titleId}
        >
          Open the link
        </a>
      )}
      <ProgressCheckbox
        key={String(material.done)}
        classId={classId}
        kind="material"
        id={material._id}
        done={material.done === true}
        describedBy={titleId}
      >
        Done
      </ProgressCheckbox>
    </ContentItem>
  );
}

/** A session or material of the class, named by its heading. */
function ContentItem({
  titleId,
  title,
  testId,
  children,
}: {
  titleId: string;
  title: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <li
      aria-labelledby={titleId}
      className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-3"
      data-testid={testId}
    >
      <h3 id={titleId} className="font-semibold break-words">
        {title}
      </h3>
      {children}
    </li>
  );
}
