import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatPrice } from '@skillhive/shared/money';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { allTeacherClassesQueryOptions, classStatsQueryOptions, countByStatus } from '../../teacher/api/classes.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { BarChartCard } from '../../../components/ui/bar-chart-card.tsx';
import { Greeting } from './greeting.tsx';

/** teacherHome (issue 7): the greeting and the teacher's figures. */
export function TeacherHome() {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const classes = useQuery({ ...allTeacherClassesQueryOptions(email), enabled: email !== '' });
  const items = classes.data?.items ?? [];
  // Only classes that can have enrolments have revenue: accepted ones (and archived, DESIGN §4).
  const earning = items.filter((item) => item.status === 'accepted' || item.status === 'archived');
  const stats = useQueries({ queries: earning.map((item) => classStatsQueryOptions(item._id)) });
  const statsPending = stats.some((s) => s.isPending);
  const statsFailed = stats.some((s) => s.isError);
  const revenue = stats.reduce((sum, s) => sum + (s.data?.revenue ?? 0), 0);
  const paidStudents = stats.reduce((sum, s) => sum + (s.data?.paidStudents ?? 0), 0);

  return (
    <div className="flex flex-col gap-6">
      <title>Teacher Home — SkillHive</title>
      <Greeting>Your teaching at a glance.</Greeting>
      {classes.isPending ? (
        <LoadingState />
      ) : classes.isError ? (
        <FetchError what="your classes" error={classes.error} onRetry={() => void classes.refetch()} />
      ) : (
        <TeacherFigures
          counts={countByStatus(items)}
          total={classes.data.total}
          students={items.reduce((sum, item) => sum + item.totalEnrollment, 0)}
          paidStudents={statsPending || statsFailed ? null : paidStudents}
          revenue={statsPending ? 'Loading...' : statsFailed ? 'Unavailable' : formatPrice(revenue)}
          perClass={earning.map((item) => ({ label: item.title, value: item.totalEnrollment }))}
        />
      )}
    </div>
  );
}

interface TeacherFiguresProps {
  counts: ReturnType<typeof countByStatus>;
  total: number;
  students: number;
  paidStudents: number | null;
  revenue: string;
  perClass: { label: string; value: number }[];
}

function TeacherFigures({ counts, total, students, paidStudents, revenue, perClass }: TeacherFiguresProps) {
  if (total === 0) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-6">
        <h2 className="text-lg font-semibold">You have no classes yet</h2>
        <Link to={paths.dashboard.addClasses} className="btn btn-primary">
          Add your first class
        </Link>
      </div>
    );
  }
  return (
    <>
      <StatGrid>
        <StatCard
          label="Classes"
          value={total}
          hint={`${counts.accepted} accepted · ${counts.pending} pending · ${counts.rejected} rejected`}
        />
        <StatCard label="Students enrolled" value={students} />
        <StatCard label="Paid students" value={paidStudents ?? '—'} />
        <StatCard label="Revenue" value={revenue} />
      </StatGrid>
      <div className="grid gap-4 xl:grid-cols-2">
        <BarChartCard
          title="Classes by status"
          valueLabel="Classes"
          data={[
            { label: 'Pending', value: counts.pending },
            { label: 'Accepted', value: counts.accepted },
            { label: 'Rejected', value: counts.rejected },
          ]}
        />
        <BarChartCard
          title="Students per accepted class"
          valueLabel="Students"
          data={perClass}
          emptyText="No students yet."
          colors={['#a14a07']}
        />
      </div>
    </>
  );
}
