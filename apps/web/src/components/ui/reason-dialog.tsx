import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { REASON_MAX } from '@skillhive/shared/rules/constants';
import { RefundReasonForm } from '@skillhive/shared/rules/refunds';
import { BusyButton } from './busy-button.tsx';
import { FormDialog } from './form-dialog.tsx';
import { TextareaField } from './form-field.tsx';

interface ReasonDialogProps {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  /** The submit button's text ("Refund", "Request refund", "Decline"). */
  action: string;
  /** Who reads the reason, under the field. */
  hint: string;
  busy: boolean;
  danger?: boolean;
  onCancel: () => void;
  onSubmit: (reason: string) => void;
}

/**
 * A modal form asking for one required reason (refunding, requesting a refund, declining one). The shared RefundReasonForm checks it here and on the server with the same
 * messages.
 */
export function ReasonDialog({
  open,
  title,
  description,
  action,
  hint,
  busy,
  danger = false,
  onCancel,
  onSubmit,
}: ReasonDialogProps) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<RefundReasonForm>({ resolver: zodResolver(RefundReasonForm), defaultValues: { reason: '' } });
  return (
    <FormDialog
      open={open}
      title={title}
      description={description}
      onCancel={onCancel}
      onClose={() => reset()}
      onSubmit={handleSubmit((values) => onSubmit(values.reason))}
    >
      <TextareaField
        label="Reason"
        rows={3}
        maxLength={REASON_MAX}
        hint={hint}
        error={errors.reason?.message}
        {...register('reason')}
      />
      <div className="modal-action flex-wrap">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <BusyButton type="submit" busy={busy} className={danger ? 'btn-error' : 'btn-primary'}>
          {action}
        </BusyButton>
      </div>
    </FormDialog>
  );
}
