/**
 * The length of a new coupon's code. With checkout's limit on wrong codes
 * (RATE_LIMIT_COUPON_FAILURES, per account and per address), short codes are the ones a guesser
 * could still reach; eight characters leave too many to try.
 */
export const COUPON_CODE_MIN = 8;
export const COUPON_CODE_MAX = 40;

/** What coupons say to people (decision 019); the server's refusals and the web's forms share them. */
export const COUPON_MESSAGES = {
  unknown: 'This coupon code does not exist',
  expired: 'This coupon has expired',
  usedUp: 'This coupon has been used up',
  alreadyUsed: 'You have already used this coupon',
  notForTheseClasses: 'This coupon is not valid for the classes in your cart',
  codeTaken: 'This code is already in use; please choose another',
  code: `Use ${COUPON_CODE_MIN} to ${COUPON_CODE_MAX} letters, digits, - or _`,
  value: 'Enter a whole number above 0',
  percent: 'A percentage is at most 100',
  fixedTooLarge: 'A fixed discount is at most 1,000,000 cents',
  expiresAt: 'Enter a date and time in the future',
  maxUses: 'Enter a whole number from 1 to 1,000,000',
  /** A coupon may not bring a cart below the smallest charge (PRICE_MIN_CENTS, Stripe's minimum; decision 019). */
  belowMinimum: 'This coupon would bring your total below $0.50, the smallest amount we can charge',
  /**
   * What checkout answers for every code the student cannot use (unknown, disabled, expired, used
   * up, used by them already, for other classes): one answer, so guessing learns nothing from it.
   */
  unusable: 'This coupon code does not exist or cannot be used for your cart',
  /** Too many unusable codes from one account or one address (RATE_LIMIT_COUPON_FAILURES…). */
  tooManyAttempts: 'Too many coupon codes were tried.',
  /** The code typed at checkout is not one a coupon could have. */
  codeFormat: 'Enter a coupon code of 1 to 40 letters, digits, - or _',
} as const;

/**
 * What a code typed at checkout may look like (before normaliseCouponCode): codes made before
 * COUPON_CODE_MIN was raised may be shorter, so checkout takes any length up to the maximum.
 */
export const COUPON_CODE_INPUT = /^[A-Za-z0-9_-]{1,40}$/;

export const COUPON_KINDS = ['percent', 'fixed'] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

/** Codes are matched case-insensitively and without surrounding spaces: stored and looked up upper-case. */
export function normaliseCouponCode(raw: string): string {
  return raw.trim().toUpperCase();
}
