import { useQuery } from '@tanstack/react-query';
import { centsToDecimal, formatPrice } from '@skillhive/shared/rules/money';
import type { ReactNode } from 'react';
import type { AdminStats } from '@skillhive/shared/contracts/stats';
import { adminStatsQueryOptions } from '../../stats/api/stats.ts';
import { ClassesByStatusChart, RevenueByMonthChart } from './stats-charts.tsx';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { BarChartCard } from '../../../components/ui/bar-chart-card.tsx';
import { DashboardHome } from './greeting.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

/**
 * adminHome (spec §2): the greeting and the platform's figures, counted by the server; its money is
 * the ledger's (decision 039): revenue kept and the platform's fee of it.
 */
export function AdminHome() {
  const stats = useQuery(adminStatsQueryOptions(useUserScope()));

  return (
    <DashboardHome title="Admin Home" intro="The platform at a glance." query={stats} what="the platform's figures">
      {(data) => <PlatformFigures stats={data} />}
    </DashboardHome>
  );
}

function PlatformFigures({ stats }: { stats: AdminStats }) {
  const { users, classes } = stats;
  const thisMonth = stats.byMonth.at(-1);
  return (
    <>
      <FiguresSection id="admin-home-users" title="Users">
        <StatGrid>
          <StatCard label="Users" value={users.total} />
          <StatCard label="Admins" value={users.admins} />
          <StatCard label="Teachers" value={users.teachers} />
          <StatCard label="Students" value={users.students} />
        </StatGrid>
        <BarChartCard
          title="Users by role"
          valueLabel="Users"
          data={[
            { label: 'Admin', value: users.admins },
            { label: 'Teacher', value: users.teachers },
            { label: 'Student', value: users.students },
          ]}
        />
      </FiguresSection>

      <FiguresSection id="admin-home-classes" title="Classes">
        <StatGrid>
          <StatCard label="Pending review" value={classes.pending} />
          <StatCard label="Accepted" value={classes.accepted} />
          <StatCard label="Rejected" value={classes.rejected} />
          <StatCard label="Archived" value={classes.archived} hint="Deleted with paid students" />
          <StatCard label="Hidden" value={classes.hidden} hint="Taken down after a report" />
        </StatGrid>
        <ClassesByStatusChart counts={classes} />
      </FiguresSection>

      <FiguresSection id="admin-home-revenue" title="Revenue">
        <StatGrid>
          <StatCard label="Revenue" value={formatPrice(stats.total)} hint="All time, net of refunds" />
          <StatCard
            label="Platform fee"
            value={formatPrice(stats.fee)}
            hint={`Teachers' shares ${formatPrice(centsToDecimal(stats.totalCents - stats.feeCents))}`}
          />
          <StatCard label="Paid enrollments" value={stats.paidEnrollments} />
          <StatCard
            label="This month"
            value={formatPrice(thisMonth?.revenue ?? 0)}
            hint={`Fee ${formatPrice(thisMonth?.fee ?? 0)} · ${thisMonth?.paidEnrollments ?? 0} paid enrollments`}
          />
        </StatGrid>
        <RevenueByMonthChart byMonth={stats.byMonth} />
      </FiguresSection>
    </>
  );
}

/** One group of the platform's figures, named by its heading. */
function FiguresSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
