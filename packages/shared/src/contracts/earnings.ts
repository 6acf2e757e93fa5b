import { z } from 'zod';
import {
  CONNECT_STATUSES,
  COUPON_SOURCES,
  DISPUTE_STATUSES,
  EARNING_LINE_STATES,
  PAYOUT_BATCH_STATUSES,
  PAYOUT_FILTERS,
  PAYOUT_METHODS,
  PAYOUT_SCHEDULES,
  PAYOUT_STATUSES,
} from '../rules/earnings.ts';
import { PageQuery } from './common.ts';

/**
 * Money out (decisions 039 and 040): a teacher's earnings ledger, balances and payouts, and the
 * admin's payouts, fee revenue and disputes. Money in integer cents (`…Cents`); dates ISO 8601.
 *
 * Teacher (access `teacher`, their own only):
 *   GET  /api/teachers/me/earnings                      → EarningsSummary
 *   GET  /api/teachers/me/earnings/lines?page&limit&month → EarningLine[] (X-Total-Count)
 *   GET  /api/teachers/me/earnings/statement?month      → text/csv
 *   GET  /api/teachers/me/payouts?page&limit            → Payout[] (X-Total-Count)
 *   POST /api/teachers/me/connect                       → ConnectOnboardingResponse (409 without a gateway that connects)
 *   GET  /api/teachers/me/connect/return                → 303 to the Earnings page after re-reading the account
 *   GET  /api/teachers/me/connect/refresh               → 303 to a fresh onboarding link
 * Admin (access `admin`):
 *   GET  /api/admin/payouts?status&page&limit           → AdminPayout[] (X-Total-Count)
 *   GET  /api/admin/payouts/upcoming                    → UpcomingPayouts
 *   POST /api/admin/payouts/run                         → PayoutRunResult
 *   POST /api/admin/payouts/:id/retry                   → AdminPayout (409 unless failed)
 *   GET  /api/admin/payout-batches?page&limit           → PayoutBatch[] (X-Total-Count)
 *   POST /api/admin/payout-batches                      → 201 PayoutBatch (409 when nothing to batch)
 *   GET  /api/admin/payout-batches/:id/csv              → text/csv
 *   POST /api/admin/payout-batches/:id/mark-paid        → PayoutBatch (409 when paid already)
 *   GET  /api/admin/earnings/revenue                    → FeeRevenueMonth[] (last 12 months)
 *   GET  /api/admin/disputes?status&page&limit          → Dispute[] (X-Total-Count)
 *   GET  /api/admin/teachers/:id/fee-rate               → TeacherFeeRate
 *   PUT  /api/admin/teachers/:id/fee-rate  SetFeeRateBody → TeacherFeeRate (audited)
 * Built-in test gateway only (404 otherwise), admins:
 *   POST /api/admin/test-gateway/disputes  RaiseTestDisputeBody → 201 Dispute
 *   POST /api/admin/test-gateway/disputes/:id/close  CloseTestDisputeBody → Dispute
 *   GET  /test-gateway/connect/:accountId               → the simulated onboarding page (HTML)
 */

// ---- Teacher -------------------------------------------------------------------------------

/** A teacher's connected payout account as the gateway reports it. */
export const ConnectAccount = z.object({
  status: z.enum(CONNECT_STATUSES),
  /** Which gateway holds the account (`test` offline, `stripe`); null before onboarding. */
  gateway: z.string().nullable(),
  /** Whether the gateway can send money to the account now. */
  payoutsEnabled: z.boolean(),
  /** Whether onboarding through the gateway is possible at all (false: manual payouts by bank transfer). */
  available: z.boolean(),
});
export type ConnectAccount = z.infer<typeof ConnectAccount>;

/**
 * GET /api/teachers/me/earnings: the balances. `shares − clawbacks = paid + pending + frozen +
 * available`, to the cent; `available` below 0 is a debt (`negativeBalanceCents`) the next payouts
 * recover first.
 */
export const EarningsSummary = z.object({
  currency: z.string(),
  /** The teacher's fee rate in percent (their own, or the platform's). */
  feePercent: z.number(),
  pendingCents: z.number().int(),
  availableCents: z.number().int(),
  /** Shares of lines under dispute: they stop moving until the dispute closes. */
  frozenCents: z.number().int(),
  paidCents: z.number().int(),
  /** max(0, −available): what refunds after payout took back, recovered from the next payouts. */
  negativeBalanceCents: z.number().int(),
  /** Every share ever earned, and every share taken back by refunds and lost disputes. */
  sharesCents: z.number().int(),
  clawbacksCents: z.number().int(),
  /** When the scheduled payout job next runs; null when no payouts are scheduled. */
  nextPayoutAt: z.string().nullable(),
  payoutSchedule: z.enum(PAYOUT_SCHEDULES),
  minimumPayoutCents: z.number().int(),
  connect: ConnectAccount,
});
export type EarningsSummary = z.infer<typeof EarningsSummary>;

/** One paid line of the teacher's classes (student shown by initials only). */
export const EarningLine = z.object({
  _id: z.string(),
  enrollmentId: z.string(),
  classId: z.string(),
  title: z.string(),
  /** e.g. "J. D."; never the name or e-mail. */
  studentInitials: z.string(),
  /** What the student paid for the line, after coupons. */
  grossCents: z.number().int(),
  feeCents: z.number().int(),
  shareCents: z.number().int(),
  /** The class's list price and what a coupon took off it, and whose coupon it was. */
  listCents: z.number().int(),
  discountCents: z.number().int(),
  /** `none` when no coupon took anything off the line (an enum with null does not survive the API document). */
  couponSource: z.enum([...COUPON_SOURCES, 'none']),
  feePercent: z.number(),
  state: z.enum(EARNING_LINE_STATES),
  /** Of the share: still held, released (available or paid out), paid out. */
  pendingCents: z.number().int(),
  releasedCents: z.number().int(),
  paidOutCents: z.number().int(),
  /** What a refund or lost dispute took back of this line's share. */
  clawbackCents: z.number().int(),
  currency: z.string(),
  paidAt: z.string(),
  /** When the next held part is released (refund window end or next session's end); null when none is held. */
  releaseAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
});
export type EarningLine = z.infer<typeof EarningLine>;

/** GET /api/teachers/me/earnings/lines: newest first; `month` limits to lines paid that month (UTC). */
export const EarningLinesQuery = PageQuery.extend({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Give a month as YYYY-MM')
    .optional(),
});
export type EarningLinesQuery = z.infer<typeof EarningLinesQuery>;

/** GET /api/teachers/me/earnings/statement?month=YYYY-MM → text/csv */
export const StatementQuery = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Give a month as YYYY-MM'),
});

export const Payout = z.object({
  _id: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
  status: z.enum(PAYOUT_STATUSES),
  method: z.enum(PAYOUT_METHODS),
  /** The gateway's transfer id once made. */
  transferId: z.string().nullable(),
  /** The manual batch it belongs to, for manual payouts. */
  batchId: z.string().nullable(),
  failureReason: z.string().nullable(),
  /** A negative balance this payout recovered before paying (cents withheld). */
  recoveredCents: z.number().int(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type Payout = z.infer<typeof Payout>;

/** POST /api/teachers/me/connect: where to send the teacher to onboard. */
export const ConnectOnboardingResponse = z.object({ url: z.string() });
export type ConnectOnboardingResponse = z.infer<typeof ConnectOnboardingResponse>;

// ---- Admin ---------------------------------------------------------------------------------

export const PayoutTeacher = z.object({ _id: z.string(), name: z.string(), email: z.string() });

/** A payout with its teacher (admins only). */
export const AdminPayout = Payout.extend({ teacher: PayoutTeacher, attempts: z.number().int() });
export type AdminPayout = z.infer<typeof AdminPayout>;

export const AdminPayoutQuery = PageQuery.extend({ status: z.enum(PAYOUT_FILTERS).optional() });
export type AdminPayoutQuery = z.infer<typeof AdminPayoutQuery>;

/** GET /api/admin/payouts/upcoming: what the next run would pay each teacher with a balance. */
export const UpcomingPayout = z.object({
  teacher: PayoutTeacher,
  availableCents: z.number().int(),
  /** What the run would pay: available, if at least the minimum. */
  payableCents: z.number().int(),
  method: z.enum(PAYOUT_METHODS),
  connectStatus: z.enum(CONNECT_STATUSES),
});
export type UpcomingPayout = z.infer<typeof UpcomingPayout>;

export const UpcomingPayouts = z.object({
  nextPayoutAt: z.string().nullable(),
  payoutSchedule: z.enum(PAYOUT_SCHEDULES),
  minimumPayoutCents: z.number().int(),
  payouts: z.array(UpcomingPayout),
});
export type UpcomingPayouts = z.infer<typeof UpcomingPayouts>;

/** POST /api/admin/payouts/run: a payout run now (the scheduled job's work). */
export const PayoutRunResult = z.object({
  /** Gateway payouts made and manual ones queued for a batch. */
  paid: z.number().int(),
  manual: z.number().int(),
  failed: z.number().int(),
  totalCents: z.number().int(),
});
export type PayoutRunResult = z.infer<typeof PayoutRunResult>;

/** A batch of manual payouts, exported as CSV for bank transfers and marked paid by an admin. */
export const PayoutBatch = z.object({
  _id: z.string(),
  status: z.enum(PAYOUT_BATCH_STATUSES),
  count: z.number().int(),
  totalCents: z.number().int(),
  currency: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type PayoutBatch = z.infer<typeof PayoutBatch>;

/** GET /api/admin/earnings/revenue: platform fee revenue per calendar month (UTC), oldest first. */
export const FeeRevenueMonth = z.object({
  month: z.string(),
  grossCents: z.number().int(),
  feeCents: z.number().int(),
  sharesCents: z.number().int(),
  /** Shares taken back by refunds and lost disputes in lines paid that month. */
  clawbacksCents: z.number().int(),
  lines: z.number().int(),
});
export type FeeRevenueMonth = z.infer<typeof FeeRevenueMonth>;

export const DisputeLine = z.object({
  enrollmentId: z.string(),
  title: z.string(),
  teacherName: z.string(),
  grossCents: z.number().int(),
  shareCents: z.number().int(),
});

/** A chargeback as the gateway sent it (admins only). */
export const Dispute = z.object({
  _id: z.string(),
  gatewayDisputeId: z.string(),
  paymentId: z.string(),
  transactionId: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
  reason: z.string(),
  status: z.enum(DISPUTE_STATUSES),
  /** The gateway's own status (`needs_response`, `won`, `lost`, …). */
  gatewayStatus: z.string(),
  /** When evidence is due at the gateway; null when it did not say. */
  evidenceDueBy: z.string().nullable(),
  /** The evidence fields as the gateway sent them (names as Stripe's `evidence` object). */
  evidence: z.record(z.string(), z.string().nullable()),
  lines: z.array(DisputeLine),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
});
export type Dispute = z.infer<typeof Dispute>;

export const DisputeQuery = PageQuery.extend({ status: z.enum(DISPUTE_STATUSES).optional() });

/** GET/PUT /api/admin/teachers/:id/fee-rate */
export const TeacherFeeRate = z.object({
  teacherId: z.string(),
  /** The rate that applies to the teacher's next sales. */
  feePercent: z.number(),
  /** Their own rate; null when the platform's applies. */
  ownFeePercent: z.number().nullable(),
  platformFeePercent: z.number(),
});
export type TeacherFeeRate = z.infer<typeof TeacherFeeRate>;

/** POST /api/admin/test-gateway/disputes (built-in test gateway only): a chargeback on a payment. */
export const RaiseTestDisputeBody = z.object({
  transactionId: z.string().min(1).max(200),
  /** The lines disputed; all the payment's paid lines when absent. */
  enrollmentIds: z.array(z.string().min(1).max(64)).min(1).max(100).optional(),
  reason: z.string().trim().min(1).max(100).default('fraudulent'),
});
export type RaiseTestDisputeBody = z.infer<typeof RaiseTestDisputeBody>;

/** POST /api/admin/test-gateway/disputes/:id/close */
export const CloseTestDisputeBody = z.object({ outcome: z.enum(['won', 'lost']) });
export type CloseTestDisputeBody = z.infer<typeof CloseTestDisputeBody>;
