import { useForm } from 'react-hook-form';
import type { z } from 'zod/mini';
import { zodResolver } from '@hookform/resolvers/zod';
import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportTargetType } from '@skillhive/shared/rules/constants';
import { ReportFormBody } from '@skillhive/shared/rules/report-form';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { SelectField, TextareaField } from '../../../components/ui/form-field.tsx';
import { useCreateReport } from '../api/moderation.ts';
import { REASON_LABELS } from './report-labels.ts';

export interface ReportTarget {
  targetType: ReportTargetType;
  targetId: string;
  /** What is reported, as the heading names it ("the class “Knife skills”"). */
  label: string;
  /** Whose it is, when known: its owner is offered no Report button. */
  ownerId?: string | undefined;
}

/** The report form (decision 043): a reason and optional details, checked by the shared schema. */
export function ReportDialog({ open, target, onClose }: { open: boolean; target: ReportTarget; onClose: () => void }) {
  const create = useCreateReport();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<z.input<typeof ReportFormBody>, unknown, ReportFormBody>({
    resolver: zodResolver(ReportFormBody),
    defaultValues: { details: '' },
  });
  const submit = handleSubmit((values) =>
    create.mutate(
      { targetType: target.targetType, targetId: target.targetId, ...values },
      {
        onSuccess: () => {
          notify.success('Thank you: an admin will look at your report, and we will tell you the outcome.');
          onClose();
        },
        onError: (error) => notify.error(errorMessage(error)),
      },
    ),
  );
  return (
    <FormDialog
      open={open}
      title={`Report ${target.label}`}
      description="Admins read reports and decide what to do. The person you report is not told who you are."
      onCancel={onClose}
      onClose={() => reset()}
      onSubmit={submit}
    >
      <SelectField
        label="Reason"
        placeholder="Choose a reason"
        options={REPORT_REASONS.map((reason) => ({ value: reason, label: REASON_LABELS[reason] }))}
        error={errors.reason?.message}
        {...register('reason')}
      />
      <TextareaField
        label="What happened (optional)"
        rows={4}
        maxLength={REPORT_DETAILS_MAX}
        error={errors.details?.message}
        {...register('details')}
      />
      <div className="modal-action flex-wrap">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Cancel
        </button>
        <BusyButton type="submit" busy={create.isPending} className="btn-error">
          Send report
        </BusyButton>
      </div>
    </FormDialog>
  );
}
