import { z } from 'zod';

/** The multipart field that carries the file (spec §7 image host). */
export const UPLOAD_FIELD = 'image';

/** Types read from the file's bytes, never from its name or declared type. SVG is never accepted. */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

export const UPLOAD_MESSAGES = {
  missing: 'Choose an image to upload',
  tooLarge: 'The image must be at most 5 MB',
  tooManyPixels: 'The image must be at most 40 megapixels',
  unsupported: 'Upload a JPEG, PNG, WebP, GIF or AVIF image',
  unreadable: 'The image could not be read',
  /** Per-user storage quota (UPLOAD_QUOTA_MB) used up. */
  quotaExceeded:
    'You have used all your image storage. Images that no class or profile uses are removed after a day; please try again later.',
  /** Per-user upload rate limit (RATE_LIMIT_UPLOADS_PER_MINUTE). */
  rateLimited: 'You are uploading images too quickly. Please wait a minute and try again.',
  /** The server's image-processing queue is full. */
  busy: 'The server is busy processing other images. Please try again in a few seconds.',
} as const;

/** POST /api/uploads/images answers as the spec's image host did (spec §7). */
export const UploadResponse = z.object({
  success: z.literal(true),
  data: z.object({ display_url: z.string(), thumb_url: z.string(), width: z.number(), height: z.number() }),
});
export type UploadResponse = z.infer<typeof UploadResponse>;
