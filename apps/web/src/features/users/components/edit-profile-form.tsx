import { useEffect, useId, useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { UPLOAD_MAX_BYTES } from '@skillhive/shared/rules/constants';
import { UpdateUserBody } from '@skillhive/shared/rules/account-forms';
import type { UserProfile } from '@skillhive/shared/contracts/users';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { TextField } from '../../../components/ui/form-field.tsx';
import { PhoneField, PhotoUrlField } from '../../../components/ui/account-fields.tsx';
import { useUpdateUser } from '../../auth/api/account.ts';
import { uploadImage } from '../../teacher/api/upload-image.ts';
import { Form } from '../../../components/ui/form-message.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useSubmitError } from '../../../lib/form-errors.ts';
import { Avatar } from '../../../components/ui/fallback-image.tsx';
import { zodResolver } from '@hookform/resolvers/zod';

const updateUserResolver = zodResolver(UpdateUserBody);

type EditProfileInput = { name: string; phone: string; image: string };

const FIELDS = ['name', 'phone', 'image'] as const;
const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

/**
 * The shared UpdateUserBody rules (spec §5). A phone or photo the account never had may stay
 * empty (a Google account has no phone); one it had cannot be emptied, as at sign-up.
 */
function profileResolver(original: EditProfileInput): Resolver<EditProfileInput, unknown, UpdateUserBody> {
  const resolve = updateUserResolver as unknown as Resolver<EditProfileInput, unknown, UpdateUserBody>;
  return (values, context, options) => {
    const keep = (field: 'phone' | 'image') => values[field].trim() !== '' || original[field] !== '';
    const body = {
      name: values.name,
      ...(keep('phone') ? { phone: values.phone } : {}),
      ...(keep('image') ? { image: values.image } : {}),
    } as EditProfileInput;
    return resolve(body, context, options);
  };
}

/** "Edit profile": name, phone and photo, uploaded or by URL. */
export function EditProfileForm({ profile }: { profile: UserProfile }) {
  const original: EditProfileInput = { name: profile.name, phone: profile.phone ?? '', image: profile.image ?? '' };
  const update = useUpdateUser();
  const [uploading, setUploading] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const fileId = useId();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<EditProfileInput, unknown, UpdateUserBody>({
    resolver: profileResolver(original),
    defaultValues: original,
  });
  useEffect(() => () => abort.current?.abort(), []);
  const photo = useWatch({ control, name: 'image' });

  const choosePhoto = async (file: File | undefined) => {
    abort.current?.abort();
    setUploadError(null);
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setUploadError('Choose an image file (JPEG, PNG, WebP, GIF or AVIF).');
      return;
    }
    if (file.size > UPLOAD_MAX_BYTES) {
      setUploadError('That image is too large (at most 5 MB).');
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setUploading(0);
    try {
      const result = await uploadImage(file, {
        signal: controller.signal,
        onProgress: (fraction) => setUploading(fraction),
      });
      setValue('image', result.data.display_url, { shouldDirty: true, shouldValidate: true });
    } catch (failure) {
      if (failure instanceof DOMException && failure.name === 'AbortError') return;
      setUploadError(errorMessage(failure, 'The upload failed. Please try again.'));
    } finally {
      if (abort.current === controller) {
        abort.current = null;
        setUploading(null);
      }
    }
  };

  const { formError, attempt } = useSubmitError(setError, FIELDS, 'Your profile could not be saved. Please try again.');
  const submit = handleSubmit((values) =>
    attempt(async () => {
      await update.mutateAsync(values);
      reset({ name: values.name ?? '', phone: values.phone ?? '', image: values.image ?? '' });
      notify.success('Profile saved');
    }),
  );

  const percent = uploading === null ? null : Math.round(uploading * 100);
  const alert = formError ?? errors.root?.message;

  return (
    <Form label="Edit profile" onSubmit={submit} alert={alert}>
      <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <PhoneField error={errors.phone?.message} {...register('phone')} />
      <fieldset className="flex flex-col gap-3 rounded-box border border-base-300 p-4">
        <legend className="px-1 font-medium">Photo</legend>
        <div className="flex items-center gap-4">
          <Avatar
            size={64}
            src={photo}
            className="h-16 w-16 shrink-0 rounded-full object-cover ring-2 ring-accent"
            data-testid="profile-photo-preview"
          />
          <p className="text-sm text-muted">Upload an image, or paste the address of one.</p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={fileId} className="font-medium">
            Upload a photo
          </label>
          <input
            id={fileId}
            type="file"
            accept={ACCEPT}
            className={`file-input w-full ${uploadError ? 'file-input-error' : ''}`}
            aria-invalid={uploadError ? true : undefined}
            aria-describedby={uploadError ? `${fileId}-error` : `${fileId}-hint`}
            onChange={(event) => void choosePhoto(event.target.files?.[0])}
          />
          {uploadError ? (
            <p id={`${fileId}-error`} className="text-sm font-medium text-error">
              {uploadError}
            </p>
          ) : (
            <p id={`${fileId}-hint`} className="text-sm text-muted">
              JPEG, PNG, WebP, GIF or AVIF, at most 5 MB.
            </p>
          )}
          {percent !== null ? (
            <progress
              className="progress progress-primary w-full"
              value={percent}
              max={100}
              aria-label="Upload progress"
            />
          ) : null}
        </div>
        <PhotoUrlField error={errors.image?.message} {...register('image')} />
      </fieldset>
      <BusyButton type="submit" className="btn-primary self-start" busy={isSubmitting} disabled={uploading !== null}>
        Save profile
      </BusyButton>
    </Form>
  );
}
