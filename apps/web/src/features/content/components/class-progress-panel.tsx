import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { classProgressQueryOptions } from '../api/content.ts';

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });

/**
 * GET /api/classes/:id/progress (decision 021): attendance and completion per paid student, for the
 * class's teacher (and admins).
 */
export function ClassProgressPanel({ classId }: { classId: string }) {
  const query = useQuery(classProgressQueryOptions(useUserScope(), classId));
  return (
    <section aria-labelledby="class-progress-heading" className="flex flex-col gap-3">
      <h2 id="class-progress-heading" className="text-xl font-semibold">
        Progress
      </h2>
      <QueryState query={query} what="the progress">
        {(progress) => (
          <>
            <StatGrid>
              <StatCard label="Sessions held" value={`${progress.sessionsHeld} of ${progress.publishedSessions}`} />
              <StatCard label="Students" value={progress.studentsEnrolled} />
              <StatCard label="Average completion" value={percent.format(progress.averageCompletion)} />
            </StatGrid>
            {progress.students.length === 0 ? (
              <p className="text-muted">No paid students yet.</p>
            ) : (
              // Scrolls sideways on a narrow screen; focusable so a keyboard can scroll it too.
              <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Progress per student, scrollable">
                <table className="table table-sm" aria-label="Progress per student">
                  <thead>
                    <tr>
                      <th scope="col">Student</th>
                      <th scope="col">Sessions attended</th>
                      <th scope="col">Materials done</th>
                      <th scope="col">Completion</th>
                    </tr>
                  </thead>
                  <tbody>
                    {progress.students.map((student) => (
                      <tr key={student.studentId}>
                        <th scope="row" className="font-normal break-words">
                          {student.name}
                        </th>
                        <td>
                          {student.attendedSessions} / {progress.publishedSessions}
                        </td>
                        <td>
                          {student.completedMaterials} / {progress.publishedMaterials}
                        </td>
                        <td>{percent.format(student.completion)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
