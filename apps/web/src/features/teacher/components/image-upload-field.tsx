import { useEffect, useId, useRef, useState } from 'react';
import { UPLOAD_MAX_BYTES } from '@skillhive/shared/rules/constants';
import { errorMessage } from '../../../lib/api-client.ts';
import { uploadImage } from '../api/upload-image.ts';

const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

interface ImageUploadFieldProps {
  label: string;
  /** The current image (an update keeps it unless a new one is chosen). */
  currentUrl?: string | undefined;
  error?: string | undefined;
  /** Called with the uploaded image's display_url, or null while nothing usable is chosen. */
  onUploaded: (url: string | null) => void;
  onBusyChange?: (busy: boolean) => void;
}

/**
 * The class image: chosen, previewed at once, uploaded with a progress bar (spec §7's image host,
 * now our POST /api/uploads/images). The form only gets the address once the upload succeeded.
 */
export function ImageUploadField({ label, currentUrl, error, onUploaded, onBusyChange }: ImageUploadFieldProps) {
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  const choose = async (file: File | undefined) => {
    abort.current?.abort();
    setUploadError(null);
    if (!file) {
      setPreview(null);
      setProgress(null);
      onUploaded(currentUrl ?? null);
      return;
    }
    if (!file.type.startsWith('image/')) {
      setUploadError('Choose an image file (JPEG, PNG, WebP, GIF or AVIF).');
      onUploaded(currentUrl ?? null);
      return;
    }
    if (file.size > UPLOAD_MAX_BYTES) {
      setUploadError('That image is too large (at most 5 MB).');
      onUploaded(currentUrl ?? null);
      return;
    }
    setPreview(URL.createObjectURL(file));
    setProgress(0);
    onUploaded(null);
    onBusyChange?.(true);
    const controller = new AbortController();
    abort.current = controller;
    try {
      const result = await uploadImage(file, {
        signal: controller.signal,
        onProgress: (fraction) => setProgress(fraction),
      });
      onUploaded(result.data.display_url);
    } catch (failure) {
      if (failure instanceof DOMException && failure.name === 'AbortError') return;
      setUploadError(errorMessage(failure, 'The upload failed. Please try again.'));
      setProgress(null);
      setPreview(null);
      onUploaded(currentUrl ?? null);
    } finally {
      if (abort.current === controller) {
        abort.current = null;
        onBusyChange?.(false);
      }
    }
  };

  const shownError = uploadError ?? error;
  const shown = preview ?? currentUrl ?? null;
  const percent = progress === null ? null : Math.round(progress * 100);

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept={ACCEPT}
        className={`file-input w-full ${shownError ? 'file-input-error' : ''}`}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={shownError ? `${id}-error` : `${id}-hint`}
        onChange={(event) => void choose(event.target.files?.[0])}
      />
      {shownError ? (
        <p id={`${id}-error`} className="text-sm font-medium text-error">
          {shownError}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {currentUrl ? 'Keep the current image, or choose a new one. ' : ''}JPEG, PNG, WebP, GIF or AVIF, at most 5 MB.
        </p>
      )}
      {percent !== null ? (
        <div className="flex items-center gap-3">
          <progress
            className="progress progress-primary w-full"
            value={percent}
            max={100}
            aria-label="Upload progress"
          />
          <span className="w-12 text-right text-sm tabular-nums" aria-live="polite">
            {percent}%
          </span>
        </div>
      ) : null}
      {shown ? (
        <img
          src={shown}
          alt={preview ? 'Preview of the chosen image' : 'The current class image'}
          width={320}
          height={180}
          className="aspect-video w-full max-w-xs rounded-box border border-base-300 object-cover"
        />
      ) : null}
    </div>
  );
}
