import { useQuery } from '@tanstack/react-query';
import { formatPrice } from '@skillhive/shared/rules/money';
import type { ReactNode } from 'react';
import type { AdminStats } from '@skillhive/shared/contracts/stats';
import { adminStatsQueryOptions, formatCompactPrice, monthLabel } from '../../stats/api/stats.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { BarChartCard } from '../../../components/ui/bar-chart-card.tsx';
import { Greeting } from './greeting.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

/** adminHome (spec §2, issue 7): the greeting and the platform's figures, counted by the server (issue 18 §6). */
export function AdminHome() {
  const stats = useQuery(adminStatsQueryOptions(useUserScope()));

  return (
    <div className="flex flex-col gap-6">
      <title>Admin Home — SkillHive</title>
      <Greeting>The platform at a glance.</Greeting>
      <QueryState query={stats} what="the platform's figures">
        {(data) => <PlatformFigures stats={data} />}
      </QueryState>
    </div>
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
        </StatGrid>
        <BarChartCard
          title="Classes by status"
          valueLabel="Classes"
          data={[
            { label: 'Pending', value: classes.pending },
            { label: 'Accepted', value: classes.accepted },
            { label: 'Rejected', value: classes.rejected },
            { label: 'Archived', value: classes.archived },
          ]}
        />
      </FiguresSection>

      <FiguresSection id="admin-home-revenue" title="Revenue">
        <StatGrid>
          <StatCard label="Revenue" value={formatPrice(stats.total)} hint="All time, net of refunds" />
          <StatCard label="Paid enrolments" value={stats.paidEnrollments} />
          <StatCard
            label="This month"
            value={formatPrice(thisMonth?.revenue ?? 0)}
            hint={`${thisMonth?.paidEnrollments ?? 0} paid enrolments`}
          />
        </StatGrid>
        <BarChartCard
          title="Revenue per month, last 12 months"
          valueLabel="Revenue"
          data={stats.byMonth.map((m) => ({ label: monthLabel(m.month), value: m.revenue }))}
          formatValue={formatPrice}
          formatAxis={formatCompactPrice}
          emptyText="No payments in the last 12 months."
          colors={['#a14a07']}
        />
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
