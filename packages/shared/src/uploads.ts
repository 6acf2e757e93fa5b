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
} as const;

/** POST /api/uploads/images answers as the spec's image host did (spec §7). */
export const UploadResponse = z.object({
  success: z.literal(true),
  data: z.object({ display_url: z.string(), thumb_url: z.string(), width: z.number(), height: z.number() }),
});
export type UploadResponse = z.infer<typeof UploadResponse>;
