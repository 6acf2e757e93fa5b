import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@skillhive/shared/contracts/users';
import { AUDIT_PAGE_SIZE, auditQueryOptions } from '../api/audit.ts';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** "user.promote" → "User promote"; unknown actions still read sensibly. */
function describeAction(action: string): string {
  const words = action.replace(/[._-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : action;
}

function describeDetails(details: AuditEntry['details']): string {
  if (!details) return '';
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ');
}

/** The audit log of admin actions: who, whom, what, when. */
export function AuditLog() {
  const page = usePageParam();
  const user = useUserScope();
  const query = useQuery(auditQueryOptions(user, page));
  return (
    <div className="flex flex-col gap-5">
      <title>Audit Log — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Audit log</h1>
        <p className="text-muted">Every admin decision: who did what to whom, and when.</p>
      </div>
      <PagedQueryState query={query} what="the audit log" empty="No admin actions have been recorded yet.">
        {(data) => (
          <>
            <DataTable label="Audit log" columns={['When', 'Who', 'What', 'Whom', 'Details']}>
              {data.items.map((entry) => (
                <tr key={entry._id}>
                  <td className="whitespace-nowrap">
                    <time dateTime={entry.createdAt}>{dateFormat.format(new Date(entry.createdAt))}</time>
                  </td>
                  <td className="whitespace-nowrap">{entry.actorEmail}</td>
                  <td>{describeAction(entry.action)}</td>
                  <td className="break-words">
                    {entry.targetLabel ?? entry.targetId}
                    <span className="block text-sm text-muted">{entry.targetType}</span>
                  </td>
                  <td className="text-sm break-words">{describeDetails(entry.details)}</td>
                </tr>
              ))}
            </DataTable>
            <PageControls page={page} total={data.total} limit={AUDIT_PAGE_SIZE} label="Audit log pages" />
          </>
        )}
      </PagedQueryState>
    </div>
  );
}
