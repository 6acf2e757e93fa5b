import { useId, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ClassFields, ClassRevision } from '@skillhive/shared/contracts/classes';
import { CATEGORY_LABELS } from '@skillhive/shared/rules/constants';
import { formatPrice } from '@skillhive/shared/rules/money';
import { notify } from '../../../lib/toast.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { REVISIONS_PAGE_SIZE, pendingRevisionsQueryOptions, useDecideRevision } from '../api/admin.ts';
import { RejectReasonField, useRejectReasonForm } from './reject-reason-field.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { FallbackImage } from '../../../components/ui/fallback-image.tsx';

const PAGE_PARAM = 'changesPage';

const FIELDS: { key: keyof ClassFields; label: string }[] = [
  { key: 'title', label: 'Title' },
  { key: 'price', label: 'Price' },
  { key: 'category', label: 'Category' },
  { key: 'description', label: 'Description' },
  { key: 'image', label: 'Image' },
];

const changedFields = (revision: ClassRevision) => FIELDS.filter(({ key }) => revision.proposed[key] !== undefined);

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

  if (query.isError) {
    return (
      <p role="alert" className="rounded-box bg-error/10 p-4">
        Changes to review could not be loaded: {errorMessage(query.error)}
      </p>
    );
  }
  const send = (revision: ClassRevision, decision: 'approve' | 'reject', reason: string) =>
    decide.mutate(
      { id: revision._id, decision, ...(reason ? { reason } : {}) },
      {
        onSuccess: () => {
          setReviewing(null);
          notify.success(
            decision === 'approve'
              ? `The changes to "${revision.current.title}" are live.`
              : `The changes to "${revision.current.title}" were rejected.`,
          );
        },
        onError: (error) => notify.error(errorMessage(error)),
      },
    );

  const dialog = (
    <ReviewRevisionDialog
      revision={reviewing}
      busy={decide.isPending}
      onCancel={() => setReviewing(null)}
      onDecide={(decision, reason) => reviewing && send(reviewing, decision, reason)}
    />
  );
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

function showValue(key: keyof ClassFields, value: ClassFields[keyof ClassFields], which: string): ReactNode {
  if (key === 'price') return formatPrice(value as number);
  if (key === 'category') return CATEGORY_LABELS[value as ClassFields['category']];
  if (key === 'image')
    return (
      <FallbackImage
        src={value as string}
        alt={`${which} image`}
        width={160}
        height={90}
        className="h-[90px] w-40 max-w-none rounded object-cover"
      />
    );
  return <span className="whitespace-pre-line break-words">{value as string}</span>;
}

interface ReviewRevisionDialogProps {
  /** The revision under review, or null when the dialog is closed. */
  revision: ClassRevision | null;
  busy: boolean;
  onCancel: () => void;
  onDecide: (decision: 'approve' | 'reject', reason: string) => void;
}

/** The diff of one revision, field by field, with Approve and Reject (an optional reason). */
function ReviewRevisionDialog({ revision, busy, onCancel, onDecide }: ReviewRevisionDialogProps) {
  const reason = useRejectReasonForm((text) => onDecide('reject', text));
  return (
    <FormDialog
      open={revision !== null}
      title={revision ? `Changes to “${revision.current.title}”` : null}
      onCancel={onCancel}
      onClose={reason.reset}
      onSubmit={reason.submit}
      className="max-w-3xl"
    >
      {revision ? (
        <>
          <p className="text-sm text-muted">
            Sent by {revision.name} ({revision.email})
          </p>
          <div className="overflow-x-auto" role="region" aria-label="Changed fields" tabIndex={0}>
            <table className="table table-sm">
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Current (on sale)</th>
                  <th scope="col">Proposed</th>
                </tr>
              </thead>
              <tbody>
                {changedFields(revision).map(({ key, label }) => (
                  <tr key={key}>
                    <th scope="row">{label}</th>
                    <td>{showValue(key, revision.current[key], 'Current')}</td>
                    <td className="bg-warning/10">{showValue(key, revision.proposed[key]!, 'Proposed')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <RejectReasonField label="Reason if you reject (optional)" rows={2} field={reason.field} />
      <div className="modal-action flex-wrap">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-error btn-outline" disabled={busy}>
          Reject changes
        </button>
        <button type="button" className="btn btn-success" disabled={busy} onClick={() => onDecide('approve', '')}>
          Approve changes
        </button>
      </div>
    </FormDialog>
  );
}
