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
