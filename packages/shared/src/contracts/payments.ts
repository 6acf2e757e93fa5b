import { z } from 'zod';
import { PAYMENT_STATUSES } from '../rules/constants.ts';
import {
  PAYMENT_MESSAGES,
  cvcLengthFor,
  fullExpiryYear,
  isValidCardNumber,
  normalizeCardNumber,
} from '../rules/cards.ts';
import { PageQuery } from './common.ts';

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
