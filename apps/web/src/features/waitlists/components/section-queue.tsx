import { useQuery } from '@tanstack/react-query';
import { formatSessionStart } from '../../../lib/session-time.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { sectionWaitlistQueryOptions } from '../api/waitlists.ts';

const STATUS_TEXT = { waiting: 'Waiting', offered: 'Seat offered' } as const;

/**
 * A section's waiting list in the teacher's sections editor (decision 051): who waits, in the
 * order they joined, by display name (never an e-mail address), and whose seat offer runs until when.
 */
export function SectionQueue({ sectionId, label }: { sectionId: string; label: string }) {
  const query = useQuery(sectionWaitlistQueryOptions(useUserScope(), sectionId));
  const queue = query.data ?? [];
  const headingId = `waitlist-${sectionId}`;
  return (
    <section aria-labelledby={headingId} className="mt-2 flex flex-col gap-1 text-sm" data-testid="section-queue">
      <h3 id={headingId} className="font-medium">
        Waiting list of {label}
      </h3>
      {query.isPending ? (
        <p className="text-muted">Loading the waiting list…</p>
      ) : query.isError ? (
        <p className="text-error">We could not load the waiting list.</p>
      ) : queue.length === 0 ? (
        <p className="text-muted">Nobody is waiting.</p>
      ) : (
        <table className="table table-sm">
          <thead>
            <tr>
              <th scope="col">Position</th>
              <th scope="col">Student</th>
              <th scope="col">Joined</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {queue.map((entry) => (
              <tr key={entry._id}>
                <td>{entry.position ?? '—'}</td>
                <td>{entry.studentName}</td>
                <td>{formatSessionStart(entry.joinedAt)}</td>
                <td>
                  {entry.status === 'offered' && entry.offerExpiresAt
                    ? `${STATUS_TEXT.offered} until ${formatSessionStart(entry.offerExpiresAt)}`
                    : entry.status === 'waiting'
                      ? STATUS_TEXT.waiting
                      : entry.status}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
