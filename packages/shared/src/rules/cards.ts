/** The card form's and the payment's messages and checks, shared by the web and the test gateway; no Zod here. */

export const PAYMENT_MESSAGES = {
  cardNumber: 'Enter a valid card number',
  expiry: 'Enter a valid expiry date',
  expired: 'Your card has expired',
  cvc: 'Enter a valid CVC',
  emptyCart: 'Your cart is empty',
  cartTooLarge: 'Your cart has too many classes for one payment; please pay for some of them first',
  /** Stripe's own wording for its test decline cards. */
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  authenticationFailed:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  /** A number that passes the checks but is not one of the gateway's test cards. */
  notATestCard: 'Your card was declined. This is test mode: use a test card such as 4242 4242 4242 4242.',
  intentNotFound: 'Payment not found',
  intentNotYours: 'This payment belongs to someone else',
  intentCanceled: 'This payment was canceled; please start again',
  noActionRequired: 'This payment is not waiting for authentication',
  notSucceeded: 'The payment has not succeeded',
  cartChanged: 'Your cart has changed since this payment was started; please review it and pay again',
  cartMismatch: 'The classes in this request do not match the payment',
  amountMismatch: 'The amount paid does not match the classes in the cart',
  alreadyRecordedElsewhere: 'This transaction is already recorded for other classes',
  /** Shown on a cart line whose class can no longer be paid for (deleted, rejected or in review). */
  classUnavailable: 'This class is no longer available',
  /** Every pending line belongs to a class that can no longer be paid for (decision 010). */
  nothingPayable: 'No class in your cart can be paid for: the classes are no longer available',
  notPayable: 'A class in this payment is no longer available',
  reservedElsewhere: 'These classes are being paid in another payment; please start again',
  paymentInProgress: 'A payment for these classes is still being processed; please wait a moment and try again',
  refunded: 'Your cart changed while you were paying, so the charge was refunded in full; please review your cart',
  /** Fulfilment could not count the coupon bound to the charge (used up, expired or disabled meanwhile). */
  couponUnavailable: 'The coupon of this payment can no longer be used',
  /** Fulfilment found no seat for a line whose seat hold had expired (decision 042). */
  sectionFull: 'A section in this payment is full',
  seatRefunded:
    'Your seat hold ran out and the section filled up before your payment arrived, so the charge was refunded in full; please choose another section',
  couponRefunded:
    'Your coupon could no longer be used (it ran out or expired while you were paying), so the charge was refunded in full; please apply it again or pay without it',
} as const;

/**
 * The card's brand as Stripe names it (`visa`, `mastercard`, `amex`, …), from the number's prefix;
 * `unknown` when none matches. The test gateway records it with the last four digits.
 */
export function cardBrandOf(cardNumber: string): string {
  const digits = normalizeCardNumber(cardNumber);
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  if (/^3(0[0-5]|[68])/.test(digits)) return 'diners';
  if (/^35/.test(digits)) return 'jcb';
  if (/^62/.test(digits)) return 'unionpay';
  return 'unknown';
}

/** Card numbers may be typed with spaces or dashes between the groups. */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** The Luhn (mod 10) check digit test every card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function isValidCardNumber(input: string): boolean {
  const digits = normalizeCardNumber(input);
  return /^\d{12,19}$/.test(digits) && passesLuhn(digits);
}

/** American Express numbers start with 34 or 37 and have a four-digit CVC; other cards three. */
export function cvcLengthFor(cardNumber: string): 3 | 4 {
  return /^3[47]/.test(normalizeCardNumber(cardNumber)) ? 4 : 3;
}

/** Two-digit years mean 20xx, as printed on cards. */
export function fullExpiryYear(expYear: number): number {
  return expYear < 100 ? 2000 + expYear : expYear;
}

/**
 * Whether a card is past its expiry: a card is valid through the last day of its expiry month.
 * Compared in UTC so server and browser agree.
 */
export function isCardExpired(expMonth: number, expYear: number, now: Date): boolean {
  const year = fullExpiryYear(expYear);
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return year < currentYear || (year === currentYear && expMonth < currentMonth);
}
