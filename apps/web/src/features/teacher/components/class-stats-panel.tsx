import { useQuery } from '@tanstack/react-query';
import { formatPrice } from '@skillhive/shared/rules/money';
import { classStatsQueryOptions } from '../api/classes.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { BarChartCard } from '../../../components/ui/bar-chart-card.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });
const weekFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });

/** "2025-W07" stays as is; an ISO date becomes "10 Feb". */
function weekLabel(week: string): string {
  const date = new Date(week);
  return /^\d{4}-\d{2}-\d{2}/.test(week) && !Number.isNaN(date.getTime()) ? weekFormat.format(date) : week;
}

/**
 * GET /api/classes/:id/stats: paid students (decision 003: a cart or a refunded line is no
 * student), revenue, paid enrollments per week, and the class content's progress (decision 021:
 * sessions held, average completion of paid students).
 */
export function ClassStatsPanel({ classId }: { classId: string }) {
  const query = useQuery(classStatsQueryOptions(useUserScope(), classId));
  return (
    <section aria-labelledby="class-stats-heading" className="flex flex-col gap-3">
      <h2 id="class-stats-heading" className="text-xl font-semibold">
        Enrollments
      </h2>
      <QueryState query={query} what="enrollment figures">
        {(data) => (
          <>
            <StatGrid>
              <StatCard label="Paid students" value={data.paidStudents} />
              <StatCard label="Revenue" value={formatPrice(data.revenue)} />
              <StatCard
                label="Sessions held"
                value={`${data.progress.sessionsHeld} of ${data.progress.publishedSessions}`}
              />
              <StatCard label="Average completion" value={percent.format(data.progress.averageCompletion)} />
            </StatGrid>
            <BarChartCard
              title="Paid enrollments per week"
              valueLabel="Paid enrollments"
              data={data.perWeek.map((w) => ({ label: weekLabel(w.week), value: w.enrollments }))}
              emptyText="No paid enrollments in the last 12 weeks."
              colors={['#a14a07']}
            />
          </>
        )}
      </QueryState>
    </section>
  );
}
