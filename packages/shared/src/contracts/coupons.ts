import { z } from 'zod';
import { COUPON_KINDS } from '../rules/coupons.ts';

/** A coupon as its owner sees it (decision 019). `value` is a percentage or integer cents. */
export const Coupon = z.object({
  _id: z.string(),
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  value: z.number().int(),
  expiresAt: z.string().nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
  /** The teacher whose classes it is for; null: site-wide (an admin's). */
  teacherId: z.string().nullable(),
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type Coupon = z.infer<typeof Coupon>;
