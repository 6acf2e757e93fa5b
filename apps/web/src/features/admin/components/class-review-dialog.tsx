import type { ClassItem } from '@skillhive/shared/contracts/classes';
import { ListingPreview } from '../../classes/class-listing.tsx';
import { ModerationDecisionDialog } from './moderation-decision-dialog.tsx';

interface ClassReviewDialogProps {
  /** The pending class under review, or null when the dialog is closed. */
  item: ClassItem | null;
  busy: boolean;
  onCancel: () => void;
  onDecide: (decision: 'approve' | 'reject', reason: string) => void;
}

/**
 * A pending class shown as buyers will see it on its page (picture, category, title, teacher,
 * price, the whole description), with Approve and Reject beside it: the admin decides on the
 * listing itself, not on a table row's shortened description.
 */
export function ClassReviewDialog({ item, busy, onCancel, onDecide }: ClassReviewDialogProps) {
  return (
    <ModerationDecisionDialog
      open={item !== null}
      title={item ? `Review “${item.title}”` : null}
      description={item ? `Sent by ${item.name} (${item.email}). This is how the class page will show it.` : null}
      busy={busy}
      approveLabel="Approve class"
      rejectLabel="Reject class"
      onCancel={onCancel}
      onDecide={onDecide}
      className="max-w-5xl"
    >
      {item ? (
        <div className="rounded-box border border-base-300 p-4">
          <ListingPreview
            listing={{
              title: item.title,
              image: item.image,
              category: item.category,
              price: item.price,
              description: item.description,
              teacherName: item.name,
            }}
          />
        </div>
      ) : null}
    </ModerationDecisionDialog>
  );
}
