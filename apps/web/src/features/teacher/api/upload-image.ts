import type { UploadResponse } from '@skillhive/shared/contracts/uploads';
import { ApiError, buildApiUrl, tokenStorage, type ApiPath } from '../../../lib/api-client.ts';

interface UploadOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

function errorFrom(xhr: XMLHttpRequest): ApiError {
  let body: unknown = null;
  try {
    body = JSON.parse(xhr.responseText);
  } catch {
    /* not JSON */
  }
  const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
  const fallback: Record<number, string> = {
    413: 'That image is too large (at most 5 MB).',
    415: 'That file is not a supported image (JPEG, PNG, WebP, GIF or AVIF).',
  };
  return new ApiError({
    status: xhr.status,
    code: error?.code ?? `http_${xhr.status}`,
    message: error?.message ?? fallback[xhr.status] ?? 'The upload failed. Please try again.',
  });
}

/**
 * POST /api/uploads/images (multipart field `image`). XMLHttpRequest rather than fetch because
 * only it reports upload progress. Sends the session cookie and the bearer token like any secured
 * call; resolves with the spec's image-host answer (data.display_url).
 */
export function uploadImage(file: File, { onProgress, signal }: UploadOptions = {}): Promise<UploadResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildApiUrl('/uploads/images' satisfies ApiPath<'post'>));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = tokenStorage.get();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          const body = JSON.parse(xhr.responseText) as UploadResponse;
          if (body?.success && body.data?.display_url) {
            onProgress?.(1);
            resolve(body);
            return;
          }
        } catch {
          /* fall through */
        }
        reject(
          new ApiError({
            status: xhr.status,
            code: 'bad_response',
            message: 'The upload did not return an image address.',
          }),
        );
        return;
      }
      reject(errorFrom(xhr));
    };
    xhr.onerror = () =>
      reject(
        new ApiError({
          status: 0,
          code: 'network_error',
          message: 'We could not reach SkillHive. Check your connection and try again.',
        }),
      );
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('image', file);
    xhr.send(form);
  });
}
