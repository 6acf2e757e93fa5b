import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { CATEGORIES, CATEGORY_LABELS } from '@skillhive/shared/rules/constants';
import { CreateClassBody } from '@skillhive/shared/rules/class-form';
import { SelectField, TextField } from '../../../components/ui/form-field.tsx';
import { ImageUploadField } from './image-upload-field.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useSubmitError } from '../../../lib/form-errors.ts';
import { Form } from '../../../components/ui/form-message.tsx';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLeaveGuard } from '../../../components/ui/leave-guard.tsx';

const classResolver = zodResolver(CreateClassBody);

type ClassFormInput = z.input<typeof CreateClassBody>;
const FIELDS = ['title', 'price', 'description', 'image', 'category'] as const;
const CATEGORY_OPTIONS = CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value] }));

interface ClassFormProps {
  teacher: { name: string; email: string };
  defaults?: Partial<CreateClassBody>;
  submitLabel: string;
  onSubmit: (values: CreateClassBody) => Promise<void>;
}

/**
 * spec §5 add/update class form through the shared CreateClassBody (STYLE.md): name and e-mail are
 * the account's, read-only (the server takes them from the session); the price is converted to a
 * decimal number by the schema.
 */
export function ClassForm({ teacher, defaults, submitLabel, onSubmit }: ClassFormProps) {
  const [uploading, setUploading] = useState(false);
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ClassFormInput, unknown, CreateClassBody>({
    resolver: classResolver,
    defaultValues: {
      title: defaults?.title ?? '',
      price: defaults?.price === undefined ? '' : String(defaults.price),
      description: defaults?.description ?? '',
      image: defaults?.image ?? '',
      ...(defaults?.category ? { category: defaults.category } : {}),
    },
  });

  const { formError, attempt } = useSubmitError(setError, FIELDS, 'The class could not be saved. Please try again.');
  const submit = handleSubmit((values) => attempt(() => onSubmit(values)));
  // Edits not yet saved ask before a link takes the teacher away; a save that navigates does not.
  const leaveDialog = useLeaveGuard(isDirty && !isSubmitting);

  const alert = formError ?? errors.root?.message;

  return (
    <Form
      label={submitLabel}
      onSubmit={submit}

      className="flex max-w-3xl flex-col gap-4"
      alert={alert}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" name="name" value={teacher.name} readOnly />
        <TextField label="Email" name="email" type="email" value={teacher.email} readOnly />
      </div>
      <TextField label="Title" error={errors.title?.message} {...register('title')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Price (USD)"
          inputMode="decimal"
          placeholder="e.g. 49.99"
          error={errors.price?.message}
          {...register('price', { setValueAs: (value: unknown) => (value === '' ? undefined : value) })}
        />
        <SelectField
          label="Category"
          placeholder="Select a category"
          options={CATEGORY_OPTIONS}
          error={errors.category?.message}
          {...register('category')}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="class-description" className="font-medium">
          Description
        </label>
        <textarea
          id="class-description"
          rows={5}
          className={`textarea w-full ${errors.description ? 'textarea-error' : ''}`}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? 'class-description-error' : undefined}
          {...register('description')}
        />
        {errors.description ? (
          <p id="class-description-error" className="text-sm font-medium text-error">
            {errors.description.message}
          </p>
        ) : null}
      </div>
      <ImageUploadField
        label="Image"
        currentUrl={defaults?.image}
        error={errors.image?.message}
        onBusyChange={setUploading}
        onUploaded={(url) =>
          setValue('image', url ?? '', { shouldDirty: true, shouldValidate: Boolean(url) || Boolean(errors.image) })
        }
      />
      <div>
        <BusyButton type="submit" className="btn-primary" busy={isSubmitting} disabled={uploading}>
          {uploading ? 'Uploading image…' : submitLabel}
        </BusyButton>
      </div>
      {leaveDialog}
    </Form>
  );
}
