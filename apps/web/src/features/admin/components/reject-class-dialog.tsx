import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { RejectReasonField, useRejectReasonForm } from './reject-reason-field.tsx';

interface RejectClassDialogProps {
  /** The class being rejected, or null when the dialog is closed. */
  classTitle: string | null;
  busy: boolean;
  onCancel: () => void;
  onReject: (reason: string) => void;
}

/** Rejecting a class asks for an optional reason that its teacher will see, so they know what to change. */
export function RejectClassDialog({ classTitle, busy, onCancel, onReject }: RejectClassDialogProps) {
  const reason = useRejectReasonForm(onReject);
  return (
    <FormDialog
      open={classTitle !== null}
      title={classTitle === null ? null : `Reject “${classTitle}”?`}
      onCancel={onCancel}
      onClose={reason.reset}
      onSubmit={reason.submit}
    >
      <RejectReasonField label="Reason (optional)" rows={3} field={reason.field} />
      <div className="modal-action flex-wrap">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-error" disabled={busy}>
          Reject class
        </button>
      </div>
    </FormDialog>
  );
}
