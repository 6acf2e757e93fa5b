import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ClassStatus } from '@skillhive/shared/rules/constants';
import { formatPrice } from '@skillhive/shared/rules/money';
import type { TeacherStats } from '@skillhive/shared/contracts/stats';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { teacherStatsQueryOptions } from '../../stats/api/stats.ts';
import { CLASS_STATUS_LABELS, ClassesByStatusChart, RevenueByMonthChart } from './stats-charts.tsx';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { DashboardHome } from './greeting.tsx';

/** teacherHome (spec §2): the greeting and the teacher's figures, computed by the server. */
export function TeacherHome() {
  const { user } = useAuth();
  const stats = useQuery(teacherStatsQueryOptions(user));

  return (
    <DashboardHome title="Teacher Home" intro="Your teaching at a glance." query={stats} what="your figures">
      {(data) => <TeacherFigures stats={data} />}
    </DashboardHome>
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
  const counts: Record<ClassStatus, number> = { pending: 0, accepted: 0, rejected: 0, archived: 0, hidden: 0 };
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
          hint={`${stats.paidEnrollments} paid enrollments`}
        />
        <StatCard label="Paid students" value={stats.students} />
        <StatCard label="Revenue" value={formatPrice(stats.total)} hint="All time, net of refunds" />
      </StatGrid>
      <div className="grid gap-4 xl:grid-cols-2">
        <RevenueByMonthChart byMonth={stats.byMonth} />
        <ClassesByStatusChart counts={counts} />
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
              <td>{CLASS_STATUS_LABELS[item.status]}</td>
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
