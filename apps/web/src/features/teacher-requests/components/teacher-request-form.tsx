import { useForm } from 'react-hook-form';
import { CATEGORIES, CATEGORY_LABELS, EXPERIENCE_LABELS, EXPERIENCE_LEVELS } from '@skillhive/shared/rules/constants';
import type { CreateTeacherRequestBody } from '@skillhive/shared/rules/teach-form';
import type { z } from 'zod';
import { SelectField, TextField } from '../../../components/ui/form-field.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useSubmitError } from '../../../lib/form-errors.ts';
import { Form } from '../../../components/ui/form-message.tsx';
import { Avatar } from '../../../components/ui/fallback-image.tsx';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';

const teacherRequestResolver = lazyZodResolver(() =>
  import('@skillhive/shared/rules/teach-form').then((rules) => rules.CreateTeacherRequestBody),
);

type TeacherRequestInput = z.input<typeof CreateTeacherRequestBody>;

const EXPERIENCE_OPTIONS = EXPERIENCE_LEVELS.map((value) => ({ value, label: EXPERIENCE_LABELS[value] }));
const CATEGORY_OPTIONS = CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value] }));
const EDITABLE = ['experience', 'title', 'category'] as const;

interface TeacherRequestFormProps {
  applicant: { name: string; email: string; photoURL: string | null };
  onSubmit: (values: CreateTeacherRequestBody) => Promise<void>;
}

/**
 * spec §5 teacher application: name, e-mail and photo come from the signed-in account and are
 * read-only (DESIGN §1.1 — the server takes them from the account, not from this form).
 */
export function TeacherRequestForm({ applicant, onSubmit }: TeacherRequestFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TeacherRequestInput, unknown, CreateTeacherRequestBody>({
    resolver: teacherRequestResolver,
    // No fake defaults: the selects start on the empty "Select…" option.
    defaultValues: { title: '' },
  });

  const { formError, attempt } = useSubmitError(
    setError,
    EDITABLE,
    'Your application could not be sent. Please try again.',
  );
  const submit = handleSubmit((values) => attempt(() => onSubmit(values)));

  const alert = formError ?? errors.root?.message;

  return (
    <Form
      label="Teacher application"
      onSubmit={submit}
      onFocus={teacherRequestResolver.preload}
      className="flex flex-col gap-5"
      alert={alert}
    >
      <div className="flex items-center gap-4 rounded-box bg-base-200 p-4">
        {/* spec §5's photo URL, pre-filled from the account: shown as the picture, not as its address. */}
        <Avatar
          size={64}
          src={applicant.photoURL}
          alt="Your photo"
          className="h-16 w-16 rounded-full object-cover ring-2 ring-accent"
        />
        <p className="text-sm text-muted">Your name, e-mail and photo come from your account.</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" name="name" value={applicant.name} readOnly />
        <TextField label="Email" name="email" type="email" value={applicant.email} readOnly />
      </div>
      <TextField
        label="Title"
        placeholder="e.g. Modern JavaScript for beginners"
        hint="What would you like to teach?"
        maxLength={120}
        error={errors.title?.message}
        {...register('title')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Experience"
          placeholder="Select…"
          options={EXPERIENCE_OPTIONS}
          defaultValue=""
          error={errors.experience?.message}
          {...register('experience')}
        />
        <SelectField
          label="Category"
          placeholder="Select…"
          options={CATEGORY_OPTIONS}
          defaultValue=""
          error={errors.category?.message}
          {...register('category')}
        />
      </div>
      <BusyButton type="submit" className="btn-primary self-start" busy={isSubmitting}>
        Submit for review
      </BusyButton>
    </Form>
  );
}
