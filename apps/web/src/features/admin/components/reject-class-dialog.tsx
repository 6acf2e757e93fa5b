import { useId } from 'react';
import { useModalDialog } from '../../../components/ui/use-modal-dialog.ts';
import { RejectReasonField, useRejectReasonForm } from './reject-reason-field.tsx';

interface RejectClassDialogProps {
  /** The class being rejected, or null when the dialog is closed. */
  classTitle: string | null;
  busy: boolean;
  onCancel: () => void;
  onReject: (reason: string) => void;
}

/** Rejecting a class asks for an optional reason that its teacher will see (issue 4). */
export function RejectClassDialog({ classTitle, busy, onCancel, onReject }: RejectClassDialogProps) {
  const titleId = useId();
  const reason = useRejectReasonForm(onReject);
  const open = classTitle !== null;
  const ref = useModalDialog(open);

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClose={reason.reset}
    >
      <form className="modal-box flex flex-col gap-3" noValidate onSubmit={reason.submit}>
        <h2 id={titleId} className="text-xl font-bold">
          Reject “{classTitle}”?
        </h2>
        <RejectReasonField label="Reason (optional)" rows={3} field={reason.field} />
        <div className="modal-action flex-wrap">
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn-error" disabled={busy}>
            Reject class
          </button>
        </div>
      </form>
    </dialog>
  );
}
