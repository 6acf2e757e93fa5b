import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ClassMaterial, ClassSession } from '@skillhive/shared/contracts/content';
import { LeaveGuard } from '../../../components/ui/leave-guard.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { classContentQueryOptions } from '../api/content.ts';
import { formatBytes, formatDuration, formatSessionStart } from '../../../lib/session-time.ts';
import { ItemRow } from './content-item-row.tsx';
import { LinkForm, UploadForm } from './material-forms.tsx';
import { PublishAll } from './publish-all.tsx';
import { SessionForm } from './session-form.tsx';

/**
 * The teacher's "Sessions and materials" editor on my-class/:id (decision 021): add (a session
 * repeated weekly too), edit, reorder, publish (one by one or all at once) and delete sessions and
 * materials; everything starts as a draft students do not see, from the moment the class is
 * created, pending review too.
 */
export function ContentEditor({ classId }: { classId: string }) {
  const query = useQuery(classContentQueryOptions(useUserScope(), classId));
  return (
    <section aria-labelledby="content-editor-heading" className="flex flex-col gap-4">
      <h2 id="content-editor-heading" className="text-xl font-semibold">
        Sessions and materials
      </h2>
      <p className="text-sm text-muted">
        New items are drafts: students who paid see them once you publish them, and visitors see published session times
        once the class is approved. Times show in your time zone.
      </p>
      <QueryState query={query} what="the sessions and materials">
        {(content) => (
          // A form with edits not yet added or saved asks before a link takes the teacher away.
          <LeaveGuard>
            <PublishAll classId={classId} sessions={content.sessions} materials={content.materials} />
            <div className="grid gap-6 lg:grid-cols-2">
              <SessionsPart classId={classId} sessions={content.sessions} />
              <MaterialsPart classId={classId} materials={content.materials} />
            </div>
          </LeaveGuard>
        )}
      </QueryState>
    </section>
  );
}

function SessionsPart({ classId, sessions }: { classId: string; sessions: ClassSession[] }) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-lg font-semibold">Sessions ({sessions.length})</h3>
      {sessions.length === 0 ? <p className="text-muted">No sessions yet.</p> : null}
      <ol className="flex flex-col gap-2" aria-label="Sessions">
        {sessions.map((session, index) =>
          editing === session._id ? (
            <li key={session._id} className="rounded-box border border-base-300 p-3">
              <SessionForm classId={classId} session={session} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <ItemRow
              key={session._id}
              classId={classId}
              kind="session"
              id={session._id}
              title={session.title}
              published={session.published}
              ids={sessions.map((s) => s._id)}
              index={index}
              onEdit={() => setEditing(session._id)}
            >
              <time dateTime={session.startsAt}>{formatSessionStart(session.startsAt)}</time>
              {' · '}
              {formatDuration(session.durationMinutes)}
              {' · '}
              {session.location ?? 'Online'}
            </ItemRow>
          ),
        )}
      </ol>
      <AddItem summary="Add a session">
        <SessionForm classId={classId} />
      </AddItem>
    </div>
  );
}

/** A closed "add" section under a list: the form opens when its summary is pressed. */
function AddItem({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <details className="rounded-box border border-base-300 p-3">
      <summary className="cursor-pointer font-medium">{summary}</summary>
      <div className="pt-3">{children}</div>
    </details>
  );
}

function MaterialsPart({ classId, materials }: { classId: string; materials: ClassMaterial[] }) {
  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-lg font-semibold">Materials ({materials.length})</h3>
      {materials.length === 0 ? <p className="text-muted">No materials yet.</p> : null}
      <ol className="flex flex-col gap-2" aria-label="Materials">
        {materials.map((material, index) => (
          <ItemRow
            key={material._id}
            classId={classId}
            kind="material"
            id={material._id}
            title={material.title}
            published={material.published}
            ids={materials.map((m) => m._id)}
            index={index}
          >
            {material.kind === 'file' ? (
              <a href={material.url} className="link" download>
                {material.fileName} {formatBytes(material.bytes)}
              </a>
            ) : (
              <a href={material.url} className="link break-all" target="_blank" rel="noreferrer noopener">
                {material.url}
              </a>
            )}
          </ItemRow>
        ))}
      </ol>
      <AddItem summary="Upload a PDF or an image">
        <UploadForm classId={classId} />
      </AddItem>
      <AddItem summary="Add a link">
        <LinkForm classId={classId} />
      </AddItem>
    </div>
  );
}
