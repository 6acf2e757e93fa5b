// Owned by modules/earnings (decision 015): only that module's repository code imports this file.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';

// No foreign keys to users, classes, enrollments or payments: money records outlive them (DESIGN §4),
// and this module owns no row of theirs (decision 015).

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/** A teacher's own platform fee (decision 039), set by an admin (audited); absent: PLATFORM_FEE_PERCENT. */
export const teacherFeeRates = pgTable(
  'teacher_fee_rates',
  {
    teacherId: text('teacher_id').primaryKey(),
    basisPoints: integer('basis_points').notNull(),
    setBy: text('set_by').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check('teacher_fee_rates_range', sql`${t.basisPoints} between 0 and 10000`)],
);

/**
 * One paid enrollment line split into the platform's fee and the teacher's share (decision 039),
 * written in the payment's transaction. gross = fee + share, always. The student is kept as
 * initials only: the teacher's ledger never shows a name or an e-mail.
 */
export const earningLines = pgTable(
  'earning_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    enrollmentId: uuid('enrollment_id').notNull().unique(),
    paymentId: uuid('payment_id').notNull(),
    /** The gateway's transaction (intent) id: a transfer's source and a dispute's key. */
    transactionId: text('transaction_id').notNull(),
    teacherId: text('teacher_id').notNull(),
    classId: uuid('class_id').notNull(),
    title: text('title').notNull(),
    studentInitials: text('student_initials').notNull(),
    currency: text('currency').notNull(),
    listCents: integer('list_cents').notNull(),
    discountCents: integer('discount_cents').notNull(),
    couponSource: text('coupon_source', { enum: ['teacher', 'site'] }),
    grossCents: integer('gross_cents').notNull(),
    feeCents: integer('fee_cents').notNull(),
    shareCents: integer('share_cents').notNull(),
    feeBasisPoints: integer('fee_basis_points').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    /** The open dispute holding this line's share still (decision 039 §disputes); null otherwise. */
    frozenBy: uuid('frozen_by'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    clawbackCents: integer('clawback_cents').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('earning_lines_teacher_paid_idx').on(t.teacherId, t.paidAt.desc()),
    index('earning_lines_payment_idx').on(t.paymentId),
    index('earning_lines_transaction_idx').on(t.transactionId),
    index('earning_lines_paid_idx').on(t.paidAt),
    check('earning_lines_split', sql`${t.grossCents} = ${t.feeCents} + ${t.shareCents}`),
    check(
      'earning_lines_positive',
      sql`${t.feeCents} >= 0 and ${t.shareCents} >= 0 and ${t.listCents} >= ${t.grossCents}`,
    ),
    check('earning_lines_clawback', sql`${t.clawbackCents} between 0 and ${t.shareCents}`),
  ],
);

export const TRANCHE_STATES = ['pending', 'released', 'cancelled'] as const;

/**
 * The parts of a line's share and when each becomes available (decision 039): one at the end of
 * the refund window, or one per scheduled session at its end. `released` parts are the teacher's
 * to pay out; `payout_id` names the payout that took them.
 */
export const earningTranches = pgTable(
  'earning_tranches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lineId: uuid('line_id')
      .notNull()
      .references(() => earningLines.id),
    teacherId: text('teacher_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    sessionId: uuid('session_id'),
    state: text('state', { enum: TRANCHE_STATES }).notNull().default('pending'),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    payoutId: uuid('payout_id'),
  },
  (t) => [
    index('earning_tranches_line_idx').on(t.lineId),
    index('earning_tranches_due_idx')
      .on(t.dueAt)
      .where(sql`${t.state} = 'pending'`),
    index('earning_tranches_unpaid_idx')
      .on(t.teacherId)
      .where(sql`${t.state} = 'released' and ${t.payoutId} is null`),
    check('earning_tranches_amount', sql`${t.amountCents} >= 0`),
    check('earning_tranches_state', sql`${t.state} in (${inList(TRANCHE_STATES)})`),
  ],
);

export const LEDGER_KINDS = [
  'share',
  'release',
  'refund',
  'freeze',
  'unfreeze',
  'dispute_lost',
  'payout',
  'payout_failed',
  'payout_reversed',
] as const;

/**
 * The journal (decision 039): every movement of a teacher's money between the buckets, never
 * updated or deleted. Σ of a bucket is the balance; a share adds to pending, a release moves
 * pending → available, a payout available → paid, a claw-back takes from pending, frozen or
 * available (below 0 after a payout: a debt). teacher_balances holds the running sums.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    teacherId: text('teacher_id').notNull(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    lineId: uuid('line_id'),
    payoutId: uuid('payout_id'),
    disputeId: uuid('dispute_id'),
    pendingCents: integer('pending_cents').notNull().default(0),
    availableCents: integer('available_cents').notNull().default(0),
    frozenCents: integer('frozen_cents').notNull().default(0),
    paidCents: integer('paid_cents').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('ledger_entries_teacher_idx').on(t.teacherId, t.id),
    index('ledger_entries_line_idx').on(t.lineId),
    check('ledger_entries_kind', sql`${t.kind} in (${inList(LEDGER_KINDS)})`),
  ],
);

/**
 * A teacher's running balances: the sums of their ledger entries, updated in the same
 * transaction. Its row is the teacher's money lock: a payout, a release and a claw-back of one
 * teacher take it FOR UPDATE, so they serialise; other teachers never wait.
 */
export const teacherBalances = pgTable(
  'teacher_balances',
  {
    teacherId: text('teacher_id').primaryKey(),
    currency: text('currency').notNull().default('usd'),
    pendingCents: integer('pending_cents').notNull().default(0),
    availableCents: integer('available_cents').notNull().default(0),
    frozenCents: integer('frozen_cents').notNull().default(0),
    paidCents: integer('paid_cents').notNull().default(0),
    sharesCents: integer('shares_cents').notNull().default(0),
    clawbacksCents: integer('clawbacks_cents').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('teacher_balances_available_idx')
      .on(t.availableCents)
      .where(sql`${t.availableCents} > 0`),
    check(
      'teacher_balances_sum',
      sql`${t.sharesCents} - ${t.clawbacksCents} = ${t.pendingCents} + ${t.availableCents} + ${t.frozenCents} + ${t.paidCents}`,
    ),
  ],
);

export const PAYOUT_ROW_STATUSES = ['in_flight', 'manual', 'paid', 'failed', 'reversed'] as const;

/**
 * A payout (decision 040): committed `in_flight` with its ledger entry (available → paid) BEFORE
 * the gateway is asked; its items' transfers use idempotency keys derived from its id and attempt,
 * so a crash and a retry never transfer twice. The reconciler settles in-flight ones.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teacherId: text('teacher_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    recoveredCents: integer('recovered_cents').notNull().default(0),
    currency: text('currency').notNull(),
    method: text('method', { enum: ['gateway', 'manual'] }).notNull(),
    status: text('status', { enum: PAYOUT_ROW_STATUSES }).notNull(),
    gateway: text('gateway'),
    accountId: text('account_id'),
    batchId: uuid('batch_id'),
    attempts: integer('attempts').notNull().default(1),
    failureReason: text('failure_reason'),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('payouts_teacher_idx').on(t.teacherId, t.createdAt.desc()),
    index('payouts_status_idx').on(t.status, t.createdAt.desc()),
    index('payouts_due_idx')
      .on(t.nextCheckAt)
      .where(sql`${t.status} = 'in_flight'`),
    // At most one payout of a teacher in flight or waiting in a batch: the next run waits for it.
    uniqueIndex('payouts_one_open_idx')
      .on(t.teacherId)
      .where(sql`${t.status} in ('in_flight', 'manual')`),
    check('payouts_amount', sql`${t.amountCents} > 0 and ${t.recoveredCents} >= 0`),
    check('payouts_status', sql`${t.status} in (${inList(PAYOUT_ROW_STATUSES)})`),
  ],
);

/**
 * The transfers of a gateway payout: one per payment its shares came from (`transfer_group` the
 * payment, `source_transaction` its charge), keyed `<payout>:<attempt>:<payment>`.
 */
export const payoutItems = pgTable(
  'payout_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    payoutId: uuid('payout_id')
      .notNull()
      .references(() => payouts.id),
    paymentId: uuid('payment_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    transferId: text('transfer_id'),
    reversedCents: integer('reversed_cents').notNull().default(0),
  },
  (t) => [
    uniqueIndex('payout_items_payout_payment_idx').on(t.payoutId, t.paymentId),
    index('payout_items_transfer_idx').on(t.transferId),
    check('payout_items_amount', sql`${t.amountCents} > 0`),
  ],
);

/** A manual payout batch: exported as CSV for bank transfers, marked paid by an admin. */
export const payoutBatches = pgTable('payout_batches', {
  id: uuid('id').primaryKey().defaultRandom(),
  status: text('status', { enum: ['open', 'paid'] })
    .notNull()
    .default('open'),
  currency: text('currency').notNull(),
  createdBy: text('created_by').notNull(),
  paidBy: text('paid_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
});

/** A teacher's connected account at the gateway; `account.updated` keeps payouts_enabled current. */
export const connectedAccounts = pgTable('connected_accounts', {
  teacherId: text('teacher_id').primaryKey(),
  gateway: text('gateway').notNull(),
  accountId: text('account_id').notNull().unique(),
  payoutsEnabled: integer('payouts_enabled').notNull().default(0),
  detailsSubmitted: integer('details_submitted').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A chargeback as the gateway sent it (decision 039): its lines' shares are frozen while it is open. */
export const disputes = pgTable(
  'disputes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gatewayDisputeId: text('gateway_dispute_id').notNull().unique(),
    paymentId: uuid('payment_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    enrollmentIds: uuid('enrollment_ids').array().notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['open', 'won', 'lost'] })
      .notNull()
      .default('open'),
    gatewayStatus: text('gateway_status').notNull(),
    evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }),
    evidence: jsonb('evidence').$type<Record<string, string | null>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [index('disputes_status_idx').on(t.status, t.createdAt.desc())],
);

/**
 * Scheduled payout runs (decision 040): one row per period (`2026-11-28` daily, `2026-W48` weekly),
 * inserted by the instance that runs it; a run whose lease lapsed unfinished is taken over.
 */
export const payoutRuns = pgTable('payout_runs', {
  period: text('period').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});
