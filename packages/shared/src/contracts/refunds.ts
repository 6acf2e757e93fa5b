import { z } from 'zod';
import { ENROLLMENT_STATUSES, REFUND_REQUEST_STATUSES, REFUND_STATUSES } from '../rules/constants.ts';
import { PageQuery } from './common.ts';

/** One refund of money. Money in integer cents. */
export const Refund = z.object({
  _id: z.string(),
  paymentId: z.string(),
  /** The line refunded; null for a refund made at the gateway that matches no single line. */
  enrollmentId: z.string().nullable(),
  amountCents: z.number().int(),
  currency: z.string(),
  reason: z.string(),
  status: z.enum(REFUND_STATUSES),
  /** The admin's e-mail; null when made in the gateway's dashboard. */
  refundedBy: z.string().nullable(),
  gatewayRefundId: z.string().nullable(),
  createdAt: z.string(),
});
export type Refund = z.infer<typeof Refund>;

/** A payment as the admin's Refunds page shows it: its lines and what was given back. */
export const AdminPayment = z.object({
  _id: z.string(),
  email: z.string(),
  transactionId: z.string(),
  gateway: z.string(),
  amountCents: z.number().int(),
  refundedCents: z.number().int(),
  currency: z.string(),
  paidAt: z.string(),
  lines: z.array(
    z.object({
      _id: z.string(),
      title: z.string(),
      priceCents: z.number().int(),
      status: z.enum(ENROLLMENT_STATUSES),
    }),
  ),
  refunds: z.array(Refund),
});
export type AdminPayment = z.infer<typeof AdminPayment>;

/**
 * A refund decided but not finished at the gateway (decision 031): the reconciler asks the gateway
 * again from `nextCheckAt` until it is settled. The admin's Refunds page lists them.
 */
export const PendingRefund = Refund.extend({
  transactionId: z.string(),
  /** The e-mail the payment was made with. */
  email: z.string(),
  /** The class of the line refunded; null for a refund that matches no single line. */
  title: z.string().nullable(),
  nextCheckAt: z.string(),
});
export type PendingRefund = z.infer<typeof PendingRefund>;

/** GET /api/admin/payments?q=: an exact transaction id or a student's e-mail. */
export const AdminPaymentQuery = PageQuery.extend({ q: z.string().trim().min(1).max(254) });

/** POST /api/admin/payments/:id/refunds */
export const CreateRefundResponse = z.object({
  refunds: z.array(Refund),
  /** What this call gave back, in cents. */
  refundedCents: z.number().int(),
});
export type CreateRefundResponse = z.infer<typeof CreateRefundResponse>;

export const RefundRequest = z.object({
  _id: z.string(),
  enrollmentId: z.string(),
  paymentId: z.string(),
  studentEmail: z.string(),
  title: z.string(),
  priceCents: z.number().int(),
  reason: z.string(),
  status: z.enum(REFUND_REQUEST_STATUSES),
  decisionReason: z.string().nullable(),
  decidedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
});
export type RefundRequest = z.infer<typeof RefundRequest>;

export const RefundRequestListQuery = PageQuery.extend({ status: z.enum(REFUND_REQUEST_STATUSES).optional() });

/** GET /api/refund-requests/mine: the caller's requests and the window they have to ask in. */
export const MyRefundRequests = z.object({
  windowDays: z.number().int(),
  requests: z.array(RefundRequest),
});
export type MyRefundRequests = z.infer<typeof MyRefundRequests>;
