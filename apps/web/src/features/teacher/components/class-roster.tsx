import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ClassRosterEntry } from '@skillhive/shared/contracts/enrollments';
import { formatPrice } from '@skillhive/shared/rules/money';
import { useAuth } from '../../auth/auth-context.ts';
import { ROSTER_PAGE_SIZE, classRosterQueryOptions } from '../api/roster.ts';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { ENROLLMENT_STATUS } from '../../../components/ui/enrollment-status.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** The roster's own page number in the URL, so the class page's other content keeps its place. */
const PAGE_PARAM = 'rosterPage';

/**
 * Who enrolled in the teacher's class: GET /api/teachers/me/classes/:id/roster,
 * newest first, paged in the URL (?rosterPage=).
 */
export function ClassRoster({ classId }: { classId: string }) {
  const { user } = useAuth();
  const page = usePageParam(PAGE_PARAM);
  const query = useQuery(classRosterQueryOptions(user, classId, page));
  return (
    <section aria-labelledby="class-roster-heading" className="flex flex-col gap-3">
      <h2 id="class-roster-heading" className="text-xl font-semibold">
        Students{query.data ? ` (${query.data.total})` : ''}
      </h2>
      <PagedQueryState query={query} what="the students" empty="Nobody has enrolled in this class yet.">
        {(data) => (
          <>
            <RosterTable entries={data.items} />
            <PageControls
              page={page}
              total={data.total}
              limit={ROSTER_PAGE_SIZE}
              label="Student pages"
              name={PAGE_PARAM}
            />
          </>
        )}
      </PagedQueryState>
    </section>
  );
}

const COLUMNS = ['Student', 'Status', 'Enrolled', 'Paid on', 'Price'] as const;

/**
 * A table from 640 px up; below, each row is a stacked card with its labels shown beside the
 * values. The roles are spelled out because some browsers drop a table's semantics once its
 * parts are no longer displayed as a table; the visible labels are hidden from assistive
 * technology, which reads the column headers instead (kept, visually hidden).
 */
export function RosterTable({ entries }: { entries: ClassRosterEntry[] }) {
  return (
    <table role="table" aria-label="Students of this class" className="table table-sm md:table-md max-sm:block">
      <thead role="rowgroup" className="max-sm:sr-only">
        <tr role="row">
          {COLUMNS.map((column) => (
            <th key={column} role="columnheader" scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className="max-sm:flex max-sm:flex-col max-sm:gap-3">
        {entries.map((entry) => {
          const status = ENROLLMENT_STATUS[entry.status];
          return (
            <tr
              key={entry.enrollmentId}
              role="row"
              className="max-sm:flex max-sm:flex-col max-sm:gap-1 max-sm:rounded-box max-sm:border max-sm:border-base-300 max-sm:bg-base-100 max-sm:p-3"
            >
              <th role="rowheader" scope="row" className="min-w-0 font-normal max-sm:p-0">
                <span className="block font-semibold break-words">{entry.studentName}</span>
                <span className="block text-sm break-all text-muted">{entry.studentEmail}</span>
              </th>
              <Cell label="Status">
                <span className={`badge ${status.badge}`}>{status.label}</span>
              </Cell>
              <Cell label="Enrolled">
                <time dateTime={entry.enrolledAt}>{formatDate(entry.enrolledAt)}</time>
              </Cell>
              <Cell label="Paid on">
                {entry.paidAt ? <time dateTime={entry.paidAt}>{formatDate(entry.paidAt)}</time> : '—'}
              </Cell>
              <Cell label="Price">{formatPrice(entry.price)}</Cell>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Cell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <td
      role="cell"
      className="whitespace-nowrap max-sm:flex max-sm:items-center max-sm:justify-between max-sm:gap-3 max-sm:p-0"
    >
      <span aria-hidden="true" className="font-medium text-muted sm:hidden">
        {label}
      </span>
      <span>{children}</span>
    </td>
  );
}
