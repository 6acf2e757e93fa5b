import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { enrollmentsQueryOptions } from '../../enrollments/api/enrollments.ts';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { DashboardHome } from './greeting.tsx';
import { ENROLLMENT_STATUS } from '../../../components/ui/enrollment-status.ts';
import { ClassRow } from '../../../components/ui/class-row.tsx';

/** studentHome (spec §2): the greeting and the student's classes at a glance. */
export function StudentHome() {
  const { user } = useAuth();
  const query = useQuery(enrollmentsQueryOptions(user, 1));

  return (
    <DashboardHome title="Student Home" intro="Here are your classes at a glance." query={query} what="your classes">
      {(data) => (
        <>
          <StatGrid>
            <StatCard label="Enrolled classes" value={data.total} />
          </StatGrid>
          {data.items.length === 0 ? (
            <div className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-6">
              <h2 className="text-lg font-semibold">You have not enrolled in a class yet</h2>
              <Link to={paths.allClasses} className="btn btn-primary">
                Browse classes
              </Link>
            </div>
          ) : (
            <section aria-labelledby="student-home-classes" className="flex flex-col gap-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 id="student-home-classes" className="text-xl font-semibold">
                  Your classes
                </h2>
                <Link to={paths.dashboard.myEnrollClass} className="link link-primary">
                  See all enrolled classes
                </Link>
              </div>
              <ul className="flex flex-col gap-2">
                {data.items.map((item) => (
                  <ClassRow key={item._id} item={item} compact>
                    <span className={`badge shrink-0 ${ENROLLMENT_STATUS[item.status].badge}`}>
                      {ENROLLMENT_STATUS[item.status].label}
                    </span>
                  </ClassRow>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </DashboardHome>
  );
}
