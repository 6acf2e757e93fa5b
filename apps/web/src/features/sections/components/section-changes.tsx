import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TeacherSection } from '@skillhive/shared/contracts/sections';
import { CancelSectionBody, RescheduleSectionBody } from '@skillhive/shared/rules/section-forms';
import { SECTION_NOTICE_MAX } from '@skillhive/shared/rules/sections';
import { toLocalDateTime } from '@skillhive/shared/rules/time-zones';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { TextField, TextareaField } from '../../../components/ui/form-field.tsx';
import { useCancelSection, useRescheduleSection } from '../api/sections.ts';

/**
 * Cancel and Reschedule on a section of the teacher's editor (decision 052): each opens a modal
 * form with an optional message to the students. Both are offered until the section's first
 * session starts; the server refuses them after (409), and the error is shown in the dialog.
 */
export function SectionChanges({
  classId,
  section,
  label,
}: {
  classId: string;
  section: TeacherSection;
  label: string;
}) {
  const [open, setOpen] = useState<'cancel' | 'reschedule' | null>(null);
  return (
    <div className="flex flex-wrap gap-2">
      {section.sessionCount > 0 ? (
        <button
          type="button"
          className="btn btn-sm btn-outline"
          onClick={() => setOpen('reschedule')}
          aria-label={`Reschedule ${label}`}
        >
          Reschedule
        </button>
      ) : null}
      <button
        type="button"
        className="btn btn-sm btn-outline btn-error"
        onClick={() => setOpen('cancel')}
        aria-label={`Cancel ${label}`}
      >
        Cancel section
      </button>
      <CancelSectionDialog
        classId={classId}
        section={section}
        label={label}
        open={open === 'cancel'}
        onClose={() => setOpen(null)}
      />
      <RescheduleSectionDialog
        classId={classId}
        section={section}
        label={label}
        open={open === 'reschedule'}
        onClose={() => setOpen(null)}
      />
    </div>
  );
}

type DialogProps = { classId: string; section: TeacherSection; label: string; open: boolean; onClose: () => void };

const cancelResolver = zodResolver(CancelSectionBody);

function CancelSectionDialog({ classId, section, label, open, onClose }: DialogProps) {
  const cancel = useCancelSection(classId);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver: cancelResolver, defaultValues: { message: '' } });
  const submit = handleSubmit((body) => {
    setFailure(null);
    cancel.mutate(
      { id: section._id, body },
      {
        onSuccess: (answer) => {
          notify.success(
            answer.refunded > 0
              ? `Section cancelled: ${answer.refunded} student${answer.refunded === 1 ? '' : 's'} refunded`
              : 'Section cancelled',
          );
          onClose();
        },
        onError: (error) => setFailure(errorMessage(error, 'The section could not be cancelled.')),
      },
    );
  });
  return (
    <FormDialog
      open={open}
      title={`Cancel ${label}?`}
      description={`Every student who paid (${section.enrolled}) is refunded in full and told by e-mail. You won't be able to revert this!`}
      onCancel={onClose}
      onClose={() => {
        reset();
        setFailure(null);
      }}
      onSubmit={submit}
    >
      <TextareaField
        label="Message to the students (optional)"
        rows={3}
        maxLength={SECTION_NOTICE_MAX}
        hint="Quoted in their e-mail."
        error={errors.message?.message}
        {...register('message')}
      />
      {failure ? (
        <p role="alert" className="text-sm font-medium text-error">
          {failure}
        </p>
      ) : null}
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Keep the section
        </button>
        <BusyButton type="submit" busy={cancel.isPending} className="btn-error">
          Yes, cancel it
        </BusyButton>
      </div>
    </FormDialog>
  );
}

const rescheduleResolver = zodResolver(RescheduleSectionBody);

function RescheduleSectionDialog({ classId, section, label, open, onClose }: DialogProps) {
  const reschedule = useRescheduleSection(classId);
  const [failure, setFailure] = useState<string | null>(null);
  const first = section.firstSessionAt ? toLocalDateTime(new Date(section.firstSessionAt), section.timeZone) : '';
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: rescheduleResolver, defaultValues: { firstStartsAt: first, message: '' } });
  const submit = handleSubmit((body) => {
    setFailure(null);
    reschedule.mutate(
      { id: section._id, body },
      {
        onSuccess: () => {
          notify.success('Section rescheduled: its students are told');
          onClose();
        },
        onError: (error) => {
          const fields = (error as { fields?: Record<string, string> }).fields;
          if (fields?.firstStartsAt) setError('firstStartsAt', { message: fields.firstStartsAt });
          setFailure(errorMessage(error, 'The section could not be rescheduled.'));
        },
      },
    );
  });
  return (
    <FormDialog
      open={open}
      title={`Reschedule ${label}`}
      description="The first session moves to the new time and every other session by as much. Each student who paid is told the new times and may keep the seat or be refunded in full until the new first session."
      onCancel={onClose}
      onClose={() => {
        reset({ firstStartsAt: first, message: '' });
        setFailure(null);
      }}
      onSubmit={submit}
    >
      <TextField
        label={`New start of the first session (${section.timeZone.replace(/_/g, ' ')})`}
        type="datetime-local"
        error={errors.firstStartsAt?.message}
        {...register('firstStartsAt')}
      />
      <TextareaField
        label="Message to the students (optional)"
        rows={3}
        maxLength={SECTION_NOTICE_MAX}
        error={errors.message?.message}
        {...register('message')}
      />
      {failure ? (
        <p role="alert" className="text-sm font-medium text-error">
          {failure}
        </p>
      ) : null}
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
        <BusyButton type="submit" busy={reschedule.isPending} className="btn-primary">
          Reschedule
        </BusyButton>
      </div>
    </FormDialog>
  );
}
