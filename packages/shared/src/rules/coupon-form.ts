import { z } from 'zod/mini';
import { COUPON_CODE_MAX, COUPON_CODE_MIN, COUPON_KINDS, COUPON_MESSAGES } from './coupons.ts';
import { singleLine } from './fields.ts';

const MILLION = 1_000_000;

/**
 * POST /api/admin/coupons and /api/teachers/me/coupons: a code, a percentage (1–100) or a fixed
 * amount in integer cents, an optional expiry (ISO 8601) and an optional maximum of uses.
 */
export const CreateCouponBody = z
  .object({
    code: z
      .string({ error: COUPON_MESSAGES.code })
      .check(
        z.trim(),
        singleLine(),
        z.regex(new RegExp(`^[A-Za-z0-9_-]{${COUPON_CODE_MIN},${COUPON_CODE_MAX}}$`), COUPON_MESSAGES.code),
      ),
    kind: z.enum(COUPON_KINDS),
    value: z
      .int({ error: COUPON_MESSAGES.value })
      .check(z.positive(COUPON_MESSAGES.value), z.maximum(MILLION, COUPON_MESSAGES.fixedTooLarge)),
    expiresAt: z.optional(z.nullable(z.iso.datetime({ offset: true, error: COUPON_MESSAGES.expiresAt }))),
    maxUses: z.optional(
      z.nullable(
        z
          .int({ error: COUPON_MESSAGES.maxUses })
          .check(z.positive(COUPON_MESSAGES.maxUses), z.maximum(MILLION, COUPON_MESSAGES.maxUses)),
      ),
    ),
  })
  .check(
    z.refine((body) => body.kind !== 'percent' || body.value <= 100, {
      message: COUPON_MESSAGES.percent,
      path: ['value'],
    }),
  );
export type CreateCouponBody = z.infer<typeof CreateCouponBody>;
