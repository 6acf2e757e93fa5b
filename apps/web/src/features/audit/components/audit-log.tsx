import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@skillhive/shared/contracts/users';
import { AUDIT_PAGE_SIZE, auditQueryOptions } from '../api/audit.ts';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** What each action did, in words, given whom it was done to (decision 025's audit entries). */
const ACTION_SENTENCES: Record<string, (whom: string) => string> = {
  'user.promote': (whom) => `Made ${whom} an admin`,
  'user.delete': (whom) => `Deleted the account of ${whom}`,
  'user.suspend': (whom) => `Suspended ${whom}`,
  'user.reinstate': (whom) => `Reinstated ${whom}`,
  'teacher_request.approve': (whom) => `Approved the teacher application of ${whom}`,
  'teacher_request.reject': (whom) => `Rejected the teacher application of ${whom}`,
  'teacher.fee_rate': (whom) => `Changed the fee rate of ${whom}`,
  'class.approve': (whom) => `Approved the class ${whom}`,
  'class.reject': (whom) => `Rejected the class ${whom}`,
  'class.delete': (whom) => `Deleted the class ${whom}`,
  'class.revision.approve': (whom) => `Approved the changes to ${whom}`,
  'class.revision.reject': (whom) => `Rejected the changes to ${whom}`,
  'payment.refund': (whom) => `Refunded payment ${whom}`,
  'refund_request.decline': (whom) => `Declined ${whom}`,
  'payout.retry': (whom) => `Retried ${whom}`,
  'payout_batch.mark_paid': (whom) => `Marked ${whom} as paid`,
  'report.dismiss': (whom) => `Dismissed the reports about ${whom}`,
  'report.hide': (whom) => `Hid ${whom} after reports`,
  'report.warn': (whom) => `Warned the owner of ${whom}`,
  'report.suspend': (whom) => `Suspended the owner of ${whom}`,
};

/** Whom an entry names: its label (a title, an e-mail), else what it was — never a bare id. */
function whomOf(entry: AuditEntry): string {
  if (entry.targetLabel) return entry.targetType === 'class' ? `“${entry.targetLabel}”` : entry.targetLabel;
  return `a ${entry.targetType.replace(/_/g, ' ')}`;
}

/** "user.promote" and a target → "Made ada@example.test an admin"; an unknown action still reads sensibly. */
export function describeEntry(entry: AuditEntry): string {
  const sentence = ACTION_SENTENCES[entry.action];
  if (sentence) return sentence(whomOf(entry));
  const words = entry.action.replace(/[._-]+/g, ' ').trim();
  return `${words ? words[0]!.toUpperCase() + words.slice(1) : entry.action}: ${whomOf(entry)}`;
}

const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-|^[A-Za-z0-9]{24,}$/;
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "teacherEmail" → "teacher email". */
const wordsOf = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/**
 * The facts of an entry a person reads: ids (keys ending in Id or Ids, values that look like
 * one) are left out — the sentence and the label already say what was concerned — and cents are money.
 */
export function describeDetails(details: AuditEntry['details']): string {
  if (!details) return '';
  return Object.entries(details)
    .filter(([key, value]) => value !== null && value !== undefined && value !== '' && !/Ids?$/.test(key))
    .filter(([, value]) => !(typeof value === 'string' && UUID_LIKE.test(value)))
    .map(([key, value]) => {
      if (key.endsWith('Cents') && typeof value === 'number')
        return `${wordsOf(key.slice(0, -5))}: ${money.format(value / 100)}`;
      if (typeof value === 'boolean') return `${wordsOf(key)}: ${value ? 'yes' : 'no'}`;
      if (Array.isArray(value)) return `${wordsOf(key)}: ${value.join(', ')}`;
      return `${wordsOf(key)}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
    })
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
            <DataTable label="Audit log" columns={['When', 'Who', 'What', 'Details']}>
              {data.items.map((entry) => (
                <tr key={entry._id}>
                  <td className="whitespace-nowrap">
                    <time dateTime={entry.createdAt}>{dateFormat.format(new Date(entry.createdAt))}</time>
                  </td>
                  <td className="break-all">{entry.actorEmail}</td>
                  <td className="min-w-48 break-words">{describeEntry(entry)}</td>
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
