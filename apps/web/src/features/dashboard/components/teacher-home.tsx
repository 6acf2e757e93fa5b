import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ClassStatus } from '@skillhive/shared/rules/constants';
import { formatPrice } from '@skillhive/shared/rules/money';
import type { TeacherStats } from '@skillhive/shared/contracts/stats';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { formatCompactPrice, monthLabel, teacherStatsQueryOptions } from '../../stats/api/stats.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { BarChartCard } from '../../../components/ui/bar-chart-card.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { Greeting } from './greeting.tsx';

const STATUS_LABELS: Record<ClassStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  archived: 'Archived',
};

/** teacherHome (issue 7): the greeting and the teacher's figures, computed by the server (issue 18 §6). */
export function TeacherHome() {
  const { user } = useAuth();
  const stats = useQuery(teacherStatsQueryOptions(user));

  return (
    <div className="flex flex-col gap-6">
      <title>Teacher Home — SkillHive</title>
      <Greeting>Your teaching at a glance.</Greeting>
      <QueryState query={stats} what="your figures">
        {(data) => <TeacherFigures stats={data} />}
      </QueryState>
    </div>
  );
}

function TeacherFigures({ stats }: { stats: TeacherStats }) {
  if (stats.classes.length === 0) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-6">
        <h2 className="text-lg font-semibold">You have no classes yet</h2>
        <Link to={paths.dashboard.addClasses} className="btn btn-primary">
          Add your first class
        </Link>
      </div>
    );
  }
  const counts: Record<ClassStatus, number> = { pending: 0, accepted: 0, rejected: 0, archived: 0 };
  for (const item of stats.classes) counts[item.status] += 1;
  // Archived classes were deleted by their teacher; they are counted apart, with their earnings kept.
  const listed = stats.classes.length - counts.archived;
  return (
    <>
      <StatGrid>
        <StatCard
          label="Classes"
          value={listed}
          hint={`${counts.accepted} accepted · ${counts.pending} pending · ${counts.rejected} rejected${
            counts.archived > 0 ? ` · ${counts.archived} archived` : ''
          }`}
        />
        <StatCard
          label="Students enrolled"
          value={stats.enrollments}
          hint={`${stats.paidEnrollments} paid enrolments`}
        />
        <StatCard label="Paid students" value={stats.students} />
        <StatCard label="Revenue" value={formatPrice(stats.total)} hint="All time, net of refunds" />
      </StatGrid>
      <div className="grid gap-4 xl:grid-cols-2">
        <BarChartCard
          title="Revenue per month, last 12 months"
          valueLabel="Revenue"
          data={stats.byMonth.map((m) => ({ label: monthLabel(m.month), value: m.revenue }))}
          formatValue={formatPrice}
          formatAxis={formatCompactPrice}
          emptyText="No payments in the last 12 months."
          colors={['#a14a07']}
        />
        <BarChartCard
          title="Classes by status"
          valueLabel="Classes"
          data={(['pending', 'accepted', 'rejected', 'archived'] as const).map((status) => ({
            label: STATUS_LABELS[status],
            value: counts[status],
          }))}
        />
      </div>
      {/* Not a labelled section: the table's scrolling region is the landmark of that name. */}
      <div className="flex flex-col gap-3">
        <h2 className="text-xl font-semibold">Earnings by class</h2>
        <DataTable label="Earnings by class" columns={['Class', 'Status', 'Enrolled', 'Paid', 'Revenue']}>
          {stats.classes.map((item) => (
            <tr key={item.classId}>
              <th scope="row" className="min-w-40 font-medium">
                {/* Like My Classes' "See Details": only a class that can have students has a details page. */}
                {item.status === 'accepted' || item.status === 'archived' ? (
                  <Link to={paths.dashboard.myClassDetails(item.classId)} className="link link-hover">
                    {item.title}
                  </Link>
                ) : (
                  item.title
                )}
              </th>
              <td>{STATUS_LABELS[item.status]}</td>
              <td className="tabular-nums">{item.enrollments}</td>
              <td className="tabular-nums">{item.paidEnrollments}</td>
              <td className="whitespace-nowrap tabular-nums">{formatPrice(item.revenue)}</td>
            </tr>
          ))}
        </DataTable>
      </div>
    </>
  );
}
