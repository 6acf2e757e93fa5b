import { useQuery } from '@tanstack/react-query';
import { userRoleCountsQueryOptions } from '../../users/api/users.ts';
import { classCountsQueryOptions } from '../../admin/api/admin.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { BarChartCard } from '../../../components/ui/bar-chart-card.tsx';
import { Greeting } from './greeting.tsx';

/** adminHome (spec §2, issue 7): the greeting and the platform's figures. */
export function AdminHome() {
  const users = useQuery(userRoleCountsQueryOptions());
  const classes = useQuery(classCountsQueryOptions());

  return (
    <div className="flex flex-col gap-6">
      <title>Admin Home — SkillHive</title>
      <Greeting>The platform at a glance.</Greeting>

      <section aria-labelledby="admin-home-users" className="flex flex-col gap-3">
        <h2 id="admin-home-users" className="text-xl font-semibold">
          Users
        </h2>
        {users.isPending ? (
          <LoadingState />
        ) : users.isError ? (
          <FetchError what="users" error={users.error} onRetry={() => void users.refetch()} />
        ) : (
          <>
            <StatGrid>
              <StatCard label="Users" value={users.data.total} />
              <StatCard label="Admins" value={users.data.admin} />
              <StatCard label="Teachers" value={users.data.teacher} />
              <StatCard label="Students" value={users.data.student} />
            </StatGrid>
            {users.data.counted < users.data.total ? (
              <p className="text-sm text-muted">The breakdown by role counts the first {users.data.counted} users.</p>
            ) : null}
            <BarChartCard
              title="Users by role"
              valueLabel="Users"
              data={[
                { label: 'Admin', value: users.data.admin },
                { label: 'Teacher', value: users.data.teacher },
                { label: 'Student', value: users.data.student },
              ]}
            />
          </>
        )}
      </section>

      <section aria-labelledby="admin-home-classes" className="flex flex-col gap-3">
        <h2 id="admin-home-classes" className="text-xl font-semibold">
          Classes
        </h2>
        {classes.isPending ? (
          <LoadingState />
        ) : classes.isError ? (
          <FetchError what="classes" error={classes.error} onRetry={() => void classes.refetch()} />
        ) : (
          <>
            <StatGrid>
              <StatCard label="Pending review" value={classes.data.pending} />
              <StatCard label="Accepted" value={classes.data.accepted} />
              <StatCard label="Rejected" value={classes.data.rejected} />
            </StatGrid>
            <BarChartCard
              title="Classes by status"
              valueLabel="Classes"
              data={[
                { label: 'Pending', value: classes.data.pending },
                { label: 'Accepted', value: classes.data.accepted },
                { label: 'Rejected', value: classes.data.rejected },
              ]}
            />
          </>
        )}
      </section>
      {/* Revenue per week needs a platform-wide payments endpoint, which the API does not offer
          (GET /api/payments/:email is per user); it is left out rather than estimated. */}
    </div>
  );
}
