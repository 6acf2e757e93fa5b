import { z } from 'zod';
import { ENROLLMENT_STATUSES, PAYMENT_STATUSES } from '../rules/constants.ts';
import {
  PAYMENT_MESSAGES,
  cvcLengthFor,
  fullExpiryYear,
  isValidCardNumber,
  normalizeCardNumber,
} from '../rules/cards.ts';
import { COUPON_CODE_INPUT, COUPON_KINDS, COUPON_MESSAGES } from '../rules/coupons.ts';
import { PageQuery } from './common.ts';

/**
 * POST /api/create-payment-intent: a `price` may be sent (spec §7) but is ignored (DESIGN §1.3).
 * `couponCode` applies a coupon (decision 019); an empty one is no coupon.
 */
export const CreatePaymentIntentBody = z
  .object({
    price: z.unknown().optional(),
    couponCode: z
      .string({ error: COUPON_MESSAGES.codeFormat })
      .trim()
      .max(40, COUPON_MESSAGES.codeFormat)
      .refine((code) => code === '' || COUPON_CODE_INPUT.test(code), COUPON_MESSAGES.codeFormat)
      .nullish(),
  })
  .optional();
export type CreatePaymentIntentBody = z.infer<typeof CreatePaymentIntentBody>;

/** One line of the cart as priced for the intent: what the coupon took off it and what is paid for it. */
export const PricedCartLine = z.object({
  /** The enrollment id. */
  _id: z.string(),
  classId: z.string(),
  listCents: z.number().int(),
  discountCents: z.number().int(),
  paidCents: z.number().int(),
});
export type PricedCartLine = z.infer<typeof PricedCartLine>;

/** POST /api/create-payment-intent: the server totals the caller's pending enrollments. */
export const PaymentIntentResponse = z.object({
  clientSecret: z.string(),
  /** Cents. */
  amount: z.number().int(),
  currency: z.string(),
  gateway: z.enum(['test', 'stripe']),
  publishableKey: z.string().nullable(),
  /** The enrollments this payment covers: send exactly these as `cartIds` to POST /api/payments. */
  cartIds: z.array(z.string()),
  /** The total before the coupon, in cents; `amount` is after it. */
  subtotalCents: z.number().int(),
  /** What the coupon takes off, in cents (0 without one). */
  discountCents: z.number().int(),
  /** The coupon applied to this intent, if any. */
  coupon: z.object({ code: z.string(), kind: z.enum(COUPON_KINDS), value: z.number().int() }).nullable(),
  /** Every line covered, in cart order: the discounted prices sum exactly to `amount`. */
  lines: z.array(PricedCartLine),
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

// ---- The student's own payment history and receipts -------------------------------------------

/** One class paid for in a payment: what was charged for it, and whether it was given back since. */
export const PaymentHistoryLine = z.object({
  /** The enrollment id. */
  _id: z.string(),
  classId: z.string(),
  title: z.string(),
  /** What this line cost in the payment, in cents: after its share of a coupon (decision 019). */
  amountCents: z.number().int(),
  /** The line's price before the coupon, in cents (equal to amountCents without one). */
  listCents: z.number().int(),
  status: z.enum(ENROLLMENT_STATUSES),
});
export type PaymentHistoryLine = z.infer<typeof PaymentHistoryLine>;

/** Money given back on the payment: asked of the gateway (pending) or done. Failed attempts are left out. */
export const PaymentHistoryRefund = z.object({
  _id: z.string(),
  /** The line given back; null for a refund made at the gateway that matches no single line. */
  enrollmentId: z.string().nullable(),
  amountCents: z.number().int(),
  reason: z.string(),
  status: z.enum(['pending', 'succeeded']),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type PaymentHistoryRefund = z.infer<typeof PaymentHistoryRefund>;

/** How the payment was made: the built-in test gateway, or a card through Stripe (brand and last 4 when known). */
export const PaymentMethod = z.object({
  gateway: z.enum(['test', 'stripe']),
  brand: z.string().nullable(),
  last4: z.string().nullable(),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** GET /api/payments/me: one payment of the caller, money in integer cents. */
export const PaymentHistoryEntry = z.object({
  _id: z.string(),
  transactionId: z.string(),
  /** When the payment was made (ISO 8601). */
  paidAt: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  currency: z.string(),
  /** What was charged, in cents. */
  totalCents: z.number().int(),
  /** What has been given back so far (succeeded refunds), in cents. */
  refundedCents: z.number().int(),
  method: PaymentMethod,
  /** The coupon applied to the payment, when one was. */
  coupon: z.object({ code: z.string(), discountCents: z.number().int() }).nullable(),
  lines: z.array(PaymentHistoryLine),
  refunds: z.array(PaymentHistoryRefund),
});
export type PaymentHistoryEntry = z.infer<typeof PaymentHistoryEntry>;

/** GET /api/payments/me: newest first. */
export const PaymentHistoryQuery = PageQuery;
export type PaymentHistoryQuery = z.infer<typeof PaymentHistoryQuery>;

/** GET /api/payments/me/:id: a payment with what a receipt names besides it. */
export const PaymentReceipt = PaymentHistoryEntry.extend({
  seller: z.object({ name: z.string() }),
  buyer: z.object({ name: z.string(), email: z.string() }),
});
export type PaymentReceipt = z.infer<typeof PaymentReceipt>;
