import { z } from 'zod/mini';
import { REASON_MAX } from './constants.ts';
import { multiLine } from './fields.ts';
import { REASON_MESSAGES } from './messages.ts';

/** What refunds say to people; the server's refusals and the web's forms share them. */
export const REFUND_MESSAGES = {
  reasonRequired: 'Please give a reason',
  notPaid: 'Only a paid enrollment can be refunded',
  alreadyRefunded: 'This enrollment has already been refunded',
  nothingToRefund: 'Every enrollment of this payment has already been refunded',
  notInPayment: 'This enrollment is not part of this payment',
  alreadyRequested: 'A refund has already been requested for this enrollment',
  outsideWindow: 'The time to request a refund for this enrollment has passed',
  requestDecided: 'This refund request has already been decided',
  inProgress: 'A refund of this enrollment is in progress; please try again in a moment',
  exceedsPayment: 'A refund cannot give back more than was paid',
  otherGateway: 'This payment was taken by another payment gateway than the one configured now',
  /** A line a coupon made free (decision 019): no money to give back. */
  nothingPaid: 'Nothing was paid for this enrollment (a coupon made it free), so there is nothing to refund',
} as const;

/** A required, trimmed reason of at most REASON_MAX characters. */
const Reason = z
  .string({ error: REFUND_MESSAGES.reasonRequired })
  .check(
    z.trim(),
    z.minLength(1, REFUND_MESSAGES.reasonRequired),
    z.maxLength(REASON_MAX, REASON_MESSAGES.tooLong),
    multiLine(),
  );

/** The refund-request form and the decline form: a reason, nothing else. */
export const RefundReasonForm = z.object({ reason: Reason });
export type RefundReasonForm = z.infer<typeof RefundReasonForm>;

/** POST /api/refund-requests: the student's request for one paid line. */
export const CreateRefundRequestBody = z.object({
  enrollmentId: z.string().check(z.minLength(1), z.maxLength(64)),
  reason: Reason,
});
export type CreateRefundRequestBody = z.infer<typeof CreateRefundRequestBody>;

/** POST /api/admin/payments/:id/refunds: one line (`enrollmentId`) or, without it, every paid line. */
export const CreateRefundBody = z.object({
  enrollmentId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  reason: Reason,
});
export type CreateRefundBody = z.infer<typeof CreateRefundBody>;

/** Whether a line paid at `paidAt` may still be asked to be refunded at `now`. */
export function isWithinRefundWindow(paidAt: Date, now: Date, windowDays: number): boolean {
  return now.getTime() - paidAt.getTime() <= windowDays * 86_400_000;
}
