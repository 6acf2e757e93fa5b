import type { ReactNode } from 'react';
import type { ClassFields, ClassRevision } from '@skillhive/shared/contracts/classes';
import { CATEGORY_LABELS } from '@skillhive/shared/rules/constants';
import { formatPrice } from '@skillhive/shared/rules/money';
import { FallbackImage } from '../../../components/ui/fallback-image.tsx';
import { ListingPreview } from '../../classes/class-listing.tsx';
import { ModerationDecisionDialog } from './moderation-decision-dialog.tsx';
import { changedFields } from './revision-fields.ts';

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
  // A long unbroken word (a pasted URL, a title without spaces) wraps rather than widening its column.
  return <span className="whitespace-pre-line [overflow-wrap:anywhere]">{value as string}</span>;
}

/** The proposed fields that are set: an unchanged field is absent (or undefined) in `proposed`. */
function withoutUnset(proposed: Partial<ClassFields>): Partial<ClassFields> {
  return Object.fromEntries(Object.entries(proposed).filter(([, value]) => value !== undefined));
}

export interface ReviewRevisionDialogProps {
  /** The revision under review, or null when the dialog is closed. */
  revision: ClassRevision | null;
  busy: boolean;
  onCancel: () => void;
  onDecide: (decision: 'approve' | 'reject', reason: string) => void;
}

/**
 * The diff of one revision, field by field, then the listing with the changes as buyers will see
 * it on the class page, with Approve and Reject (an optional reason).
 */
export function ReviewRevisionDialog({ revision, busy, onCancel, onDecide }: ReviewRevisionDialogProps) {
  return (
    <ModerationDecisionDialog
      open={revision !== null}
      title={revision ? `Changes to “${revision.current.title}”` : null}
      busy={busy}
      approveLabel="Approve changes"
      rejectLabel="Reject changes"
      onCancel={onCancel}
      onDecide={onDecide}
      className="max-w-3xl"
    >
      {revision ? (
        <>
          <p className="text-sm text-muted">
            Sent by {revision.name} ({revision.email})
          </p>
          <div className="overflow-x-auto" role="region" aria-label="Changed fields" tabIndex={0}>
            <table className="table table-sm table-fixed">
              <thead>
                <tr>
                  <th scope="col" className="w-28">
                    Field
                  </th>
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
          <details className="rounded-box border border-base-300 p-4">
            <summary className="cursor-pointer font-semibold">Preview the class page with these changes</summary>
            <div className="mt-4">
              <ListingPreview
                listing={{ ...revision.current, ...withoutUnset(revision.proposed), teacherName: revision.name }}
              />
            </div>
          </details>
        </>
      ) : null}
    </ModerationDecisionDialog>
  );
}
