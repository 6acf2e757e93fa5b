import { lazy, Suspense, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ClassRevision } from '@skillhive/shared/contracts/classes';
import { notify } from '../../../lib/toast.ts';
import { errorMessage, isApiError } from '../../../lib/api-client.ts';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { REVISIONS_PAGE_SIZE, pendingRevisionsQueryOptions, useDecideRevision } from '../api/admin.ts';
import { changedFields } from './revision-fields.ts';
import { useOpenedOnce } from '../../../components/ui/use-opened-once.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

const PAGE_PARAM = 'changesPage';

/** The review dialog (with its reject-reason form) is loaded when first opened, off the page's first load (decision 005). */
const ReviewRevisionDialog = lazy(() =>
  import('./review-revision-dialog.tsx').then((module) => ({ default: module.ReviewRevisionDialog })),
);

/**
 * "Changes to review" on allClasses (DESIGN §4): edits of accepted classes wait here while the
 * approved version stays on sale; the admin opens one to see each changed field, current →
 * proposed, then approves (it goes live) or rejects with a reason its teacher sees.
 */
export function ClassRevisionsSection() {
  const page = usePageParam(PAGE_PARAM);
  const user = useUserScope();
  const query = useQuery(pendingRevisionsQueryOptions(user, page));
  const decide = useDecideRevision();
  const [reviewing, setReviewing] = useState<ClassRevision | null>(null);
  const headingId = useId();
  const dialogMounted = useOpenedOnce(reviewing !== null);

  if (query.isError) {
    return (
      <p role="alert" className="rounded-box bg-error/10 p-4">
        Changes to review could not be loaded: {errorMessage(query.error)}
      </p>
    );
  }
  const send = (revision: ClassRevision, decision: 'approve' | 'reject', reason: string) =>
    decide.mutate(
      { id: revision._id, decision, version: revision.version, ...(reason ? { reason } : {}) },
      {
        onSuccess: () => {
          setReviewing(null);
          notify.success(
            decision === 'approve'
              ? `The changes to "${revision.current.title}" are live.`
              : `The changes to "${revision.current.title}" were rejected.`,
          );
        },
        onError: (error) => {
          // Changed or decided meanwhile (decision 027): the dialog closes on the reloaded queue.
          if (isApiError(error) && error.status === 409) setReviewing(null);
          notify.error(errorMessage(error));
        },
      },
    );

  const dialog = dialogMounted ? (
    <Suspense fallback={null}>
      <ReviewRevisionDialog
        revision={reviewing}
        busy={decide.isPending}
        onCancel={() => setReviewing(null)}
        onDecide={(decision, reason) => reviewing && send(reviewing, decision, reason)}
      />
    </Suspense>
  ) : null;
  // Nothing waiting: no section (the dialog stays mounted so it can close and hand focus back).
  if (!query.data || query.data.total === 0) return dialog;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-xl font-bold">
          Changes to review ({query.data.total})
        </h2>
        <p className="text-muted">Edits of accepted classes. The approved version stays on sale until you approve.</p>
      </div>
      <DataTable label="Changes to review" columns={['Class', 'Teacher', 'Changed', 'Review']}>
        {query.data.items.map((revision) => (
          <tr key={revision._id}>
            <th scope="row" className="min-w-40 font-medium">
              {revision.current.title}
            </th>
            <td className="whitespace-nowrap">{revision.email}</td>
            <td>
              {changedFields(revision)
                .map((f) => f.label)
                .join(', ')}
            </td>
            <td>
              <button
                type="button"
                className="btn btn-sm btn-primary"
                aria-label={`Review changes to ${revision.current.title}`}
                onClick={() => setReviewing(revision)}
              >
                Review changes
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      <PageControls
        page={page}
        total={query.data.total}
        limit={REVISIONS_PAGE_SIZE}
        label="Changes to review pages"
        name={PAGE_PARAM}
      />
      {dialog}
    </section>
  );
}
