import { z } from 'zod';
import { PAYMENT_STATUSES } from './constants.ts';
import { PageQuery } from './common.ts';

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
} as const;

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

/** POST /api/create-payment-intent: a `price` may be sent (spec §7) but is ignored (DESIGN §1.3). */
export const CreatePaymentIntentBody = z.object({ price: z.unknown().optional() }).optional();

/** POST /api/create-payment-intent: the server totals the caller's pending enrolments. */
export const PaymentIntentResponse = z.object({
  clientSecret: z.string(),
  /** Cents. */
  amount: z.number().int(),
  currency: z.string(),
  gateway: z.enum(['test', 'stripe']),
  publishableKey: z.string().nullable(),
  /** The enrolments this payment covers: send exactly these as `cartIds` to POST /api/payments. */
  cartIds: z.array(z.string()),
});
export type PaymentIntentResponse = z.infer<typeof PaymentIntentResponse>;

/** POST /api/test-gateway/confirm */
export const ConfirmCardBody = z
  .object({
    clientSecret: z.string().min(1).max(255),
    cardNumber: z
      .string({ error: PAYMENT_MESSAGES.cardNumber })
      .trim()
      .min(1, PAYMENT_MESSAGES.cardNumber)
      .max(30, PAYMENT_MESSAGES.cardNumber)
      .refine(isValidCardNumber, PAYMENT_MESSAGES.cardNumber)
      .transform(normalizeCardNumber),
    expMonth: z.coerce
      .number({ error: PAYMENT_MESSAGES.expiry })
      .int(PAYMENT_MESSAGES.expiry)
      .min(1, PAYMENT_MESSAGES.expiry)
      .max(12, PAYMENT_MESSAGES.expiry),
    expYear: z.coerce
      .number({ error: PAYMENT_MESSAGES.expiry })
      .int(PAYMENT_MESSAGES.expiry)
      .min(0, PAYMENT_MESSAGES.expiry)
      .max(9999, PAYMENT_MESSAGES.expiry),
    cvc: z
      .string({ error: PAYMENT_MESSAGES.cvc })
      .trim()
      .regex(/^\d{3,4}$/, PAYMENT_MESSAGES.cvc),
  })
  .superRefine((body, ctx) => {
    if (body.cvc.length !== cvcLengthFor(body.cardNumber))
      ctx.addIssue({ code: 'custom', path: ['cvc'], message: PAYMENT_MESSAGES.cvc });
    const year = fullExpiryYear(body.expYear);
    if (year < 2000 || year > 2100)
      ctx.addIssue({ code: 'custom', path: ['expYear'], message: PAYMENT_MESSAGES.expiry });
  });
export type ConfirmCardBody = z.infer<typeof ConfirmCardBody>;

/** `transactionId` is present when the payment succeeded; `requires_action` asks for authentication. */
export const ConfirmCardResponse = z.object({
  status: z.enum(['succeeded', 'requires_action']),
  transactionId: z.string().optional(),
});
export type ConfirmCardResponse = z.infer<typeof ConfirmCardResponse>;

/** POST /api/test-gateway/authenticate: the 3-D Secure step of card 4000 0025 0000 3155. */
export const AuthenticateBody = z.object({ clientSecret: z.string().min(1).max(255), approve: z.boolean() });
export type AuthenticateBody = z.infer<typeof AuthenticateBody>;

/** POST /api/payments: spec §3 fields. Only transactionId and cartIds are trusted as a request. */
export const CreatePaymentBody = z.object({
  email: z.string().optional(),
  price: z.number().optional(),
  transactionId: z.string().min(1).max(255),
  data: z.string().optional(),
  cartIds: z.array(z.string().min(1).max(64)).min(1).max(200),
  menuItemIds: z.array(z.string()).optional(),
  status: z.string().optional(),
});
export type CreatePaymentBody = z.infer<typeof CreatePaymentBody>;

/** 201 when this call recorded the payment, 200 when it was recorded already (same insertedId). */
export const CreatePaymentResponse = z.object({ paymentResult: z.object({ insertedId: z.string() }) });
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponse>;

export const Payment = z.object({
  _id: z.string(),
  email: z.string(),
  price: z.number(),
  transactionId: z.string(),
  /** The date of payment; the field name is spelled as spec §3 has it. */
  data: z.string(),
  cartIds: z.array(z.string()),
  /** The ids of the classes paid for (DESIGN §1.8). */
  menuItemIds: z.array(z.string()),
  status: z.enum(PAYMENT_STATUSES),
  classes: z.array(z.object({ _id: z.string(), title: z.string(), price: z.number() })),
});
export type Payment = z.infer<typeof Payment>;

/** GET /api/payments/:email: newest first. */
export const PaymentListQuery = PageQuery;
export type PaymentListQuery = z.infer<typeof PaymentListQuery>;

/** POST /api/webhooks/stripe answer (Stripe only reads the status). */
export const WebhookResponse = z.object({ received: z.literal(true), duplicate: z.boolean().optional() });
