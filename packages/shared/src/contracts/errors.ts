import { z } from 'zod';

/** Every error the API returns has this shape (DESIGN §3); its codes are `rules/http.ts` ErrorCode. */
export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** Per-field messages for validation errors: { fieldPath: message }. */
    fields: z.record(z.string(), z.string()).optional(),
  }),
  requestId: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
