import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ClassStatus } from '@skillhive/shared/rules/constants';
import { centsToDecimal, formatPrice } from '@skillhive/shared/rules/money';
import type { TeacherStats } from '@skillhive/shared/contracts/stats';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { teacherStatsQueryOptions } from '../../stats/api/stats.ts';
import { CLASS_STATUS_LABELS, ClassesByStatusChart, RevenueByMonthChart } from './stats-charts.tsx';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { DashboardHome } from './greeting.tsx';

/**
 * teacherHome (spec §2): the greeting and the teacher's figures, computed by the server; its money
 * is the ledger's (decision 039): what they earned and where it is now.
 */
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
  const { balances } = stats;
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
        <StatCard label="Paid students" value={stats.students} hint={`${stats.paidEnrollments} paid enrollments`} />
        <StatCard
          label="Earnings"
          value={formatPrice(stats.total)}
          hint="All time: your share after the platform's fee, net of refunds"
        />
      </StatGrid>
      <section aria-labelledby="teacher-home-balance" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="teacher-home-balance" className="text-xl font-semibold">
            Where your earnings are
          </h2>
          <Link to={paths.dashboard.earnings} className="link">
            Earnings and payouts
          </Link>
        </div>
        <StatGrid>
          <StatCard
            label="Pending"
            value={formatPrice(centsToDecimal(balances.pendingCents))}
            hint="Held until the refund window closes or the session is held"
          />
          <StatCard
            label="Available"
            value={formatPrice(centsToDecimal(balances.availableCents))}
            hint={
              balances.availableCents < 0 ? 'Owed after a refund of money already paid out' : 'Paid at the next payout'
            }
          />
          {balances.frozenCents !== 0 ? (
            <StatCard
              label="Frozen"
              value={formatPrice(centsToDecimal(balances.frozenCents))}
              hint="Held by an open dispute"
            />
          ) : null}
          <StatCard label="Paid out" value={formatPrice(centsToDecimal(balances.paidCents))} />
        </StatGrid>
      </section>
      <div className="grid gap-4 xl:grid-cols-2">
        <RevenueByMonthChart byMonth={stats.byMonth} title="Earnings per month, last 12 months" valueLabel="Earnings" />
        <ClassesByStatusChart counts={counts} />
      </div>
      {/* Not a labelled section: the table's scrolling region is the landmark of that name. */}
      <div className="flex flex-col gap-3">
        <h2 className="text-xl font-semibold">Earnings by class</h2>
        <DataTable label="Earnings by class" columns={['Class', 'Status', 'Paid students', 'Earnings']}>
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
              <td className="tabular-nums">{item.paidEnrollments}</td>
              <td className="whitespace-nowrap tabular-nums">{formatPrice(item.revenue)}</td>
            </tr>
          ))}
        </DataTable>
      </div>
    </>
  );
}
