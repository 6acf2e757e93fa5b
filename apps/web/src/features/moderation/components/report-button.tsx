import { lazy, Suspense, useState } from 'react';
import { useOpenedOnce } from '../../../components/ui/use-opened-once.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import type { ReportTarget } from './report-dialog.tsx';

const ReportDialog = lazy(() => import('./report-dialog.tsx').then((module) => ({ default: module.ReportDialog })));

/**
 * A "Report" button for signed-in people (decision 043); its form (with react-hook-form) is
 * downloaded when first opened, so public pages keep their first-load budget. Nobody reports
 * themself or their own content, so its owner sees no button.
 */
export function ReportButton({ target, className = '' }: { target: ReportTarget; className?: string }) {
  const user = useUserScope();
  const [open, setOpen] = useState(false);
  const mounted = useOpenedOnce(open);
  if (!user || user.id === target.ownerId || (target.targetType === 'user' && user.id === target.targetId)) return null;
  return (
    <>
      <button
        type="button"
        className={`btn btn-ghost btn-xs text-muted ${className}`}
        aria-label={`Report ${target.label}`}
        onClick={() => setOpen(true)}
      >
        Report
      </button>
      {mounted ? (
        <Suspense fallback={null}>
          <ReportDialog open={open} target={target} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
