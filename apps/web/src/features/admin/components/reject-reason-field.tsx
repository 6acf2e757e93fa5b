import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { REASON_MAX } from '@skillhive/shared/rules/constants';
import { RejectReasonBody } from '@skillhive/shared/rules/reject-reason';
import { TextareaField } from '../../../components/ui/form-field.tsx';

type RejectReasonInput = z.input<typeof RejectReasonBody>;

/**
 * The reject dialogs' form (a class, a class's changes) through the shared RejectReasonBody: an
 * optional reason its teacher reads. `submit` hands over the trimmed reason ('' for none); `reset`
 * empties the field when the dialog closes.
 */
export function useRejectReasonForm(onReject: (reason: string) => void) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<RejectReasonInput, unknown, RejectReasonBody>({
    resolver: zodResolver(RejectReasonBody),
    defaultValues: { reason: '' },
  });
  return {
    submit: handleSubmit((values) => onReject(values.reason ?? '')),
    reset: () => reset(),
    field: { registration: register('reason'), error: errors.reason?.message },
  };
}

interface RejectReasonFieldProps {
  label: string;
  rows: number;
  field: ReturnType<typeof useRejectReasonForm>['field'];
}

/** The reason's textarea, labelled, with the schema's message under it. */
export function RejectReasonField({ label, rows, field }: RejectReasonFieldProps) {
  return (
    <TextareaField
      label={label}
      rows={rows}
      maxLength={REASON_MAX}
      placeholder="The teacher sees this reason on their class."
      error={field.error}
      {...field.registration}
    />
  );
}
