import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../rules/constants.ts';

/** Ids are opaque strings exposed as `_id` (DESIGN §3). */
export const Id = z.string().min(1).max(64);

/** ?page=&limit= on every list (DESIGN §3); the total travels in TOTAL_COUNT_HEADER (`rules/http.ts`). */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const EmailParam = z.object({ email: z.string().trim().toLowerCase().min(1).max(254) });
export const IdParam = z.object({ id: z.string().min(1).max(64) });

export const InsertedIdResponse = z.object({ insertedId: z.string().nullable() });
export const ModifiedCountResponse = z.object({ modifiedCount: z.number().int() });
export const DeletedCountResponse = z.object({ deletedCount: z.number().int() });
export const SuccessResponse = z.object({ success: z.literal(true) });
