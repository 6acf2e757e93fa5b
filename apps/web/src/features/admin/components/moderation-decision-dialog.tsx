import type { ReactNode } from 'react';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { RejectReasonField, useRejectReasonForm } from './reject-reason-field.tsx';

/**
 * The frame of a moderation review (a pending class, a class's proposed change): what is under
 * review as `children`, an optional reason its teacher reads if it is rejected, and Cancel,
 * Reject and Approve, both decisions disabled while one is being sent.
 */
export function ModerationDecisionDialog({
  open,
  title,
  description,
  busy,
  approveLabel,
  rejectLabel,
  onCancel,
  onDecide,
  className = '',
  children,
}: {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  busy: boolean;
  approveLabel: string;
  rejectLabel: string;
  onCancel: () => void;
  onDecide: (decision: 'approve' | 'reject', reason: string) => void;
  /** Extra classes for the box: its width. */
  className?: string;
  children: ReactNode;
}) {
  const reason = useRejectReasonForm((text) => onDecide('reject', text));
  return (
    <FormDialog
      open={open}
      title={title}
      description={description}
      onCancel={onCancel}
      onClose={reason.reset}
      onSubmit={reason.submit}
      className={className}
    >
      {children}
      <RejectReasonField label="Reason if you reject (optional)" rows={2} field={reason.field} />
      <div className="modal-action flex-wrap">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-error btn-outline" disabled={busy}>
          {rejectLabel}
        </button>
        <button type="button" className="btn btn-success" disabled={busy} onClick={() => onDecide('approve', '')}>
          {approveLabel}
        </button>
      </div>
    </FormDialog>
  );
}
