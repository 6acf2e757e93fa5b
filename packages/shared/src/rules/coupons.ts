import { z } from 'zod/mini';

/** What coupons say to people (issue 18 §4); the server's refusals and the web's forms share them. */
export const COUPON_MESSAGES = {
  unknown: 'This coupon code does not exist',
  expired: 'This coupon has expired',
  usedUp: 'This coupon has been used up',
  alreadyUsed: 'You have already used this coupon',
  notForTheseClasses: 'This coupon is not valid for the classes in your cart',
  codeTaken: 'This code is already in use; please choose another',
  code: 'Use 3 to 40 letters, digits, - or _',
  value: 'Enter a whole number above 0',
  percent: 'A percentage is at most 100',
  fixedTooLarge: 'A fixed discount is at most 1,000,000 cents',
  expiresAt: 'Enter a date and time in the future',
  maxUses: 'Enter a whole number from 1 to 1,000,000',
  /** A coupon may not bring a cart below the smallest charge (PRICE_MIN_CENTS, Stripe's minimum; decision 019). */
  belowMinimum: 'This coupon would bring your total below $0.50, the smallest amount we can charge',
  /** The code typed at checkout is not one a coupon could have. */
  codeFormat: 'Enter a coupon code of 1 to 40 letters, digits, - or _',
} as const;

/** What a code typed at checkout may look like (before normaliseCouponCode); creation asks for 3 to 40. */
export const COUPON_CODE_INPUT = /^[A-Za-z0-9_-]{1,40}$/;

export const COUPON_KINDS = ['percent', 'fixed'] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

/** Codes are matched case-insensitively and without surrounding spaces: stored and looked up upper-case. */
export function normaliseCouponCode(raw: string): string {
  return raw.trim().toUpperCase();
}

const MILLION = 1_000_000;

/**
 * POST /api/admin/coupons and /api/teachers/me/coupons: a code, a percentage (1–100) or a fixed
 * amount in integer cents, an optional expiry (ISO 8601) and an optional maximum of uses.
 */
export const CreateCouponBody = z
  .object({
    code: z
      .string({ error: COUPON_MESSAGES.code })
      .check(z.trim(), z.regex(/^[A-Za-z0-9_-]{3,40}$/, COUPON_MESSAGES.code)),
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
