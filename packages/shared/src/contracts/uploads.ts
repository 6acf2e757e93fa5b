import { z } from 'zod';

/** POST /api/uploads/images answers as the spec's image host did (spec §7). */
export const UploadResponse = z.object({
  success: z.literal(true),
  data: z.object({ display_url: z.string(), thumb_url: z.string(), width: z.number(), height: z.number() }),
});
export type UploadResponse = z.infer<typeof UploadResponse>;
