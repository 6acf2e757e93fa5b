import { useId, useState, type FormEvent } from 'react';
import { useModalDialog } from '../../../components/ui/use-modal-dialog.ts';

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
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const open = classTitle !== null;
  const ref = useModalDialog(open);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onReject(reason.trim());
  };

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClose={() => setReason('')}
    >
      <form className="modal-box flex flex-col gap-3" onSubmit={submit}>
        <h2 id={titleId} className="text-xl font-bold">
          Reject “{classTitle}”?
        </h2>
        <div className="flex flex-col gap-1">
          <label htmlFor={reasonId} className="font-medium">
            Reason (optional)
          </label>
          <textarea
            id={reasonId}
            rows={3}
            maxLength={500}
            className="textarea w-full"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            placeholder="The teacher sees this reason on their class."
          />
        </div>
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
