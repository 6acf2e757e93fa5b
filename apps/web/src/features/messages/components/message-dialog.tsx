import { useForm } from 'react-hook-form';
import type { z } from 'zod/mini';
import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGE_BODY_MAX } from '@skillhive/shared/rules/constants';
import { MessageFormBody } from '@skillhive/shared/rules/message-form';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { TextareaField } from '../../../components/ui/form-field.tsx';
import { useMessageTeacher } from '../api/messages.ts';

/** The question form (decision 045): one text field, checked by the shared schema. */
export function MessageDialog({
  open,
  classId,
  teacherName,
  onClose,
}: {
  open: boolean;
  classId: string;
  teacherName: string;
  onClose: () => void;
}) {
  const send = useMessageTeacher();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<z.input<typeof MessageFormBody>, unknown, MessageFormBody>({
    resolver: zodResolver(MessageFormBody),
    defaultValues: { body: '' },
  });
  const submit = handleSubmit((values) =>
    send.mutate(
      { classId, body: values.body },
      {
        onSuccess: () => {
          notify.success('Message sent. The answer will be in Messages, in your dashboard.');
          onClose();
        },
        onError: (error) => notify.error(errorMessage(error)),
      },
    ),
  );
  return (
    <FormDialog
      open={open}
      title={`Message ${teacherName}`}
      description="Your e-mail address is not shown to the teacher. Keep payment on SkillHive: messages with links, e-mail addresses or phone numbers are checked by our admins."
      onCancel={onClose}
      onClose={() => reset()}
      onSubmit={submit}
    >
      <TextareaField
        label="Your message"
        rows={5}
        maxLength={MESSAGE_BODY_MAX}
        error={errors.body?.message}
        {...register('body')}
      />
      <div className="modal-action flex-wrap">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Cancel
        </button>
        <BusyButton type="submit" busy={send.isPending} className="btn-primary">
          Send message
        </BusyButton>
      </div>
    </FormDialog>
  );
}
