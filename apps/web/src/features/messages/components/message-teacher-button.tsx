import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useOpenedOnce } from '../../../components/ui/use-opened-once.ts';
import { REDIRECT_REASONS } from '../../auth/safe-return-path.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

const MessageDialog = lazy(() => import('./message-dialog.tsx').then((module) => ({ default: module.MessageDialog })));

/**
 * "Message the teacher" on a class page (decision 045), before or after buying; its form is
 * downloaded when first opened, so the public page keeps its first-load budget. A visitor is
 * asked to sign in and comes back here; the class's own teacher sees nothing.
 */
export function MessageTeacherButton({
  classId,
  teacherId,
  teacherName,
}: {
  classId: string;
  teacherId: string;
  teacherName: string;
}) {
  const user = useUserScope();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const mounted = useOpenedOnce(open);
  if (user?.id === teacherId) return null;
  if (!user) {
    return (
      <Link
        to={paths.login}
        state={{
          from: { pathname: location.pathname, search: location.search, hash: '' },
          reason: REDIRECT_REASONS.signInToMessage,
        }}
        className="btn btn-outline btn-sm self-start"
      >
        Sign in to message the teacher
      </Link>
    );
  }
  return (
    <>
      <button type="button" className="btn btn-outline btn-sm self-start" onClick={() => setOpen(true)}>
        Message the teacher
      </button>
      {mounted ? (
        <Suspense fallback={null}>
          <MessageDialog open={open} classId={classId} teacherName={teacherName} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
