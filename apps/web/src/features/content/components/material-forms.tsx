import { useState } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { ACCEPTED_MATERIAL_TYPES, CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import { LinkMaterialFormBody, MaterialFileFormBody } from '@skillhive/shared/rules/content-forms';
import { errorMessage } from '../../../lib/api-client.ts';
import { zodResolver } from '@hookform/resolvers/zod';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useUnsavedEdits } from '../../../components/ui/leave-guard.tsx';
import { TextField } from '../../../components/ui/form-field.tsx';
import { useCreateLinkMaterial, useUploadMaterial } from '../api/content.ts';
import { EditorForm, draftAdded } from './editor-form.tsx';

type LinkFormInput = z.input<typeof LinkMaterialFormBody>;

const linkResolver = zodResolver(LinkMaterialFormBody);

export function LinkForm({ classId }: { classId: string }) {
  const create = useCreateLinkMaterial(classId);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<LinkFormInput, unknown, LinkMaterialFormBody>({
    resolver: linkResolver,
    defaultValues: { title: '', url: '' },
  });
  useUnsavedEdits(isDirty);
  const submit = handleSubmit((body) => {
    setFormError(null);
    create.mutate(body, {
      onSuccess: draftAdded('Link added as a draft', reset),
      onError: (error) => setFormError(errorMessage(error, 'The link could not be added.')),
    });
  });
  const alert = formError ?? errors.root?.message;
  return (
    <EditorForm
      label="Add a link"
      onSubmit={submit}

      alert={alert}
      actions={
        <BusyButton type="submit" busy={create.isPending} className="btn-primary btn-sm self-start">
          Add link
        </BusyButton>
      }
    >
      <TextField label="Link title" error={errors.title?.message} {...register('title')} />
      <TextField label="Address" type="url" placeholder="https://" error={errors.url?.message} {...register('url')} />
    </EditorForm>
  );
}

type UploadFormInput = z.input<typeof MaterialFileFormBody> & { file: FileList | null };
type UploadFormValues = MaterialFileFormBody & { file: File };

const materialTitleResolver = zodResolver(MaterialFileFormBody);

/** The title through the shared schema, and a file chosen (the server reads its type from its bytes). */
const uploadResolver: Resolver<UploadFormInput, unknown, UploadFormValues> = async (values, context, options) => {
  const checked = await materialTitleResolver({ title: values.title }, context, {
    ...options,
    names: options.names?.filter((name) => name === 'title'),
  });
  const file = values.file?.[0];
  const errors: FieldErrors<UploadFormInput> = { ...checked.errors };
  if (!file) errors.file = { type: 'required', message: CONTENT_MESSAGES.fileRequired };
  if (!file || Object.keys(errors).length > 0) return { values: {}, errors };
  return { values: { ...(checked.values as MaterialFileFormBody), file }, errors: {} };
};

/** A PDF or an image; the server reads the type from the bytes and refuses anything else. */
export function UploadForm({ classId }: { classId: string }) {
  const upload = useUploadMaterial(classId);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<UploadFormInput, unknown, UploadFormValues>({
    resolver: uploadResolver,
    defaultValues: { title: '', file: null },
  });
  useUnsavedEdits(isDirty);
  const submit = handleSubmit(({ title, file }) => {
    setFormError(null);
    upload.mutate(
      { title, file },
      {
        onSuccess: draftAdded('File uploaded as a draft', reset),
        onError: (error) => setFormError(errorMessage(error, 'The file could not be uploaded.')),
      },
    );
  });
  const alert = formError ?? errors.root?.message;
  return (
    <EditorForm
      label="Upload a material"
      onSubmit={submit}

      alert={alert}
      actions={
        <BusyButton type="submit" busy={upload.isPending} className="btn-primary btn-sm self-start">
          Upload
        </BusyButton>
      }
    >
      <TextField label="Material title" error={errors.title?.message} {...register('title')} />
      <TextField
        label="File (PDF or image)"
        type="file"
        accept={ACCEPTED_MATERIAL_TYPES.join(',')}
        className="file-input"
        error={errors.file?.message}
        {...register('file')}
      />
    </EditorForm>
  );
}
