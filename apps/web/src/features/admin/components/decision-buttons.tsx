/**
 * Approve and Reject for one row of an admin queue (teacher requests, class submissions): both
 * named after the row for screen readers, both disabled once the row is decided or while a
 * decision is being sent.
 */
export function DecisionButtons({
  subject,
  disabled,
  onApprove,
  onReject,
}: {
  subject: string;
  disabled: boolean;
  onApprove: () => void;
  onReject: () => void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <button
        type="button"
        className="btn btn-sm btn-success"
        disabled={disabled}
        aria-label={`Approve ${subject}`}
        onClick={onApprove}
      >
        Approve
      </button>
      <button
        type="button"
        className="btn btn-sm btn-error btn-outline"
        disabled={disabled}
        aria-label={`Reject ${subject}`}
        onClick={onReject}
      >
        Reject
      </button>
    </div>
  );
}
