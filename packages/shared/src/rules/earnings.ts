import { z } from 'zod/mini';

/**
 * Money out (decision 039 the ledger, decision 040 payouts): the states and settings the server
 * and the web app share. Money is integer cents; a fee rate is basis points inside, a percentage
 * with at most two decimals on the wire (12.5 = 12.5 %).
 */

/** A line's share, as the teacher sees it: held until it can no longer be refunded, then free to pay out. */
export const EARNING_LINE_STATES = ['pending', 'available', 'paid', 'frozen', 'refunded'] as const;
export type EarningLineState = (typeof EARNING_LINE_STATES)[number];

/** Where a coupon's discount came from (decision 039): a teacher's comes out of their share, a site-wide one out of the fee. */
export const COUPON_SOURCES = ['teacher', 'site'] as const;
export type CouponSource = (typeof COUPON_SOURCES)[number];

/**
 * A payout: `in_flight` is written before the gateway is asked (its id the idempotency key);
 * `manual` waits in a batch for an admin to mark it paid; `failed` may be retried by an admin.
 */
export const PAYOUT_STATUSES = ['in_flight', 'manual', 'paid', 'failed', 'reversed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const PAYOUT_METHODS = ['gateway', 'manual'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/** The filter of the admin's payout list. */
export const PAYOUT_FILTERS = ['past', 'failed', 'in_flight', 'manual'] as const;
export type PayoutFilter = (typeof PAYOUT_FILTERS)[number];

export const PAYOUT_SCHEDULES = ['daily', 'weekly'] as const;
export type PayoutSchedule = (typeof PAYOUT_SCHEDULES)[number];

/**
 * A teacher's connected account: `none` before onboarding starts, `pending` until the gateway
 * enables payouts on it (`account.updated`), `enabled` after; `disabled` when the gateway took it back.
 */
export const CONNECT_STATUSES = ['none', 'pending', 'enabled', 'disabled'] as const;
export type ConnectStatus = (typeof CONNECT_STATUSES)[number];

export const DISPUTE_STATUSES = ['open', 'won', 'lost'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const PAYOUT_BATCH_STATUSES = ['open', 'paid'] as const;
export type PayoutBatchStatus = (typeof PAYOUT_BATCH_STATUSES)[number];

export const EARNINGS_MESSAGES = {
  feePercent: 'Give a percentage from 0 to 100 with at most two decimals',
  month: 'Give a month as YYYY-MM',
  notRetryable: 'Only a failed payout can be retried',
  batchPaid: 'This batch has already been marked paid',
  nothingToBatch: 'No teacher without a connected account has a balance to pay out',
  notTestGateway: 'Only the built-in test gateway can raise disputes',
  disputeClosed: 'This dispute is already closed',
  paymentNotFound: 'No payment has this transaction id',
  notTeacher: 'This user is not a teacher',
  connectUnavailable: 'Payouts through the gateway are not available; an admin pays you by bank transfer',
} as const;

/** A rate in percent with at most two decimals, 0–100. */
export const FeePercent = z.number({ error: EARNINGS_MESSAGES.feePercent }).check(
  z.minimum(0, EARNINGS_MESSAGES.feePercent),
  z.maximum(100, EARNINGS_MESSAGES.feePercent),
  z.refine(
    (value) => Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6,
    {
      message: EARNINGS_MESSAGES.feePercent,
    },
  ),
);

/** PUT /api/admin/teachers/:id/fee-rate: the teacher's own rate, or null to go back to the platform's. */
export const SetFeeRateBody = z.object({ feePercent: z.nullable(FeePercent) });
export type SetFeeRateBody = z.infer<typeof SetFeeRateBody>;

/** 'YYYY-MM' of a calendar month (UTC). */
export const MonthString = z
  .string({ error: EARNINGS_MESSAGES.month })
  .check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, EARNINGS_MESSAGES.month));

/** 20 → 2000 basis points; 12.5 → 1250. */
export function percentToBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}

/** 2000 → 20 */
export function basisPointsToPercent(basisPoints: number): number {
  return basisPoints / 100;
}

/**
 * The teacher's Earnings page: where the server sends a teacher back after Connect onboarding
 * (`?connect=return` or `?connect=refresh-failed`).
 */
export const EARNINGS_PAGE_PATH = '/dashboard/earnings';
