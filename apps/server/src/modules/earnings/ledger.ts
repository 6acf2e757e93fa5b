import type { Db } from '../../db/client.ts';
import { listSessionEndsOfClasses } from '../content/sessions.public.ts';
import * as repo from './earnings.repository.ts';
import { divideShare, initialsOf, splitCart } from './split.ts';

/**
 * The ledger's writes (decision 039): a sale splits each paid line into fee and share and holds
 * the share in parts that become available at the end of the refund window or per session held;
 * the release job makes them available; a refund or a lost dispute claws back what is left of a
 * line's share (a debt when it was paid out already); a dispute freezes and unfreezes a line.
 * Every function runs in its caller's transaction.
 */

export interface LedgerSettings {
  /** PLATFORM_FEE_PERCENT in basis points: the rate of teachers without their own. */
  platformBasisPoints: number;
  /** REFUND_WINDOW_DAYS: a share is held at least until its line can no longer be refunded on request. */
  refundWindowDays: number;
}

export interface SaleLine {
  /** The enrollment. */
  id: string;
  classId: string;
  teacherId: string;
  listCents: number;
  discountCents: number;
  paidCents: number;
  /** The class's title on the line, and the section bought (null: a class without sections). */
  title: string;
  sectionId: string | null;
  /**
   * A line of the cart refunded before the ledger existed (decision 039 §10): it takes its part in
   * the cart's rounding, as it did when it was sold, but it is no sale any more and is not recorded.
   */
  refundedBeforeLedger?: boolean;
}

/**
 * Writes the ledger of a payment, in the payment's transaction: its lines, the held parts of each
 * share and one `share` movement per line (into pending). A payment recorded twice is refused by
 * the payment's own unique transaction id first, and a line by its unique enrollment here.
 */
export async function recordSale(
  tx: Db,
  settings: LedgerSettings,
  input: {
    paymentId: string;
    transactionId: string;
    /** The student's name (only their initials are kept on the lines); null once their account is deleted. */
    studentName: string | null;
    currency: string;
    paidAt: Date;
    /** The coupon applied: whose it is (a teacher's id, or null for a site-wide one). */
    coupon: { teacherId: string | null } | null;
    lines: SaleLine[];
  },
): Promise<void> {
  if (input.lines.length === 0) return;
  const teacherIds = [...new Set(input.lines.map((line) => line.teacherId))];
  const classIds = [...new Set(input.lines.map((line) => line.classId))];
  // A line names no section only for a class without sessions (a class's first session makes its
  // first section and moves its lines into it, decision 041): such a cart has no session to ask about.
  const live = input.lines.some((line) => line.sectionId !== null);
  const [rates, sessions] = await Promise.all([
    repo.findFeeRates(tx, teacherIds),
    live ? listSessionEndsOfClasses(tx, classIds) : [],
  ]);
  const couponSource = input.coupon ? (input.coupon.teacherId === null ? 'site' : 'teacher') : null;
  const basisPointsOf = (teacherId: string) => rates.get(teacherId) ?? settings.platformBasisPoints;
  const splits = splitCart(
    input.lines.map((line) => ({
      listCents: line.listCents,
      grossCents: line.paidCents,
      basisPoints: basisPointsOf(line.teacherId),
      couponSource: line.discountCents > 0 ? couponSource : null,
    })),
  );
  const initials = initialsOf(input.studentName);
  const windowEnd = new Date(input.paidAt.getTime() + settings.refundWindowDays * 86_400_000);
  const tranches: repo.SaleTranche[] = [];
  input.lines.forEach((line, i) => {
    if (line.refundedBeforeLedger) return;
    const shareCents = splits[i]!.shareCents;
    // Sessions still to be held release a part each at their end; sessions over before the
    // purchase were not held for this student, and the whole share then waits for the window.
    // The sessions of the section the student bought (decision 041), not of the class's others.
    const ahead = sessions.filter(
      (s) =>
        s.classId === line.classId &&
        (line.sectionId === null || s.sectionId === line.sectionId) &&
        s.endsAt > input.paidAt,
    );
    if (ahead.length === 0) {
      tranches.push({ enrollmentId: line.id, amountCents: shareCents, dueAt: windowEnd, sessionId: null });
      return;
    }
    divideShare(shareCents, ahead.length).forEach((amountCents, j) => {
      const session = ahead[j]!;
      tranches.push({ enrollmentId: line.id, amountCents, dueAt: session.endsAt, sessionId: session.sessionId });
    });
  });
  // The lines, their held parts, their `share` movements and the teachers' balances in one
  // statement: the fulfilment's transaction holds its locks for as few round trips as can be.
  await repo.insertSale(tx, {
    lines: input.lines.flatMap((line, i) =>
      line.refundedBeforeLedger
        ? []
        : [
            {
              enrollmentId: line.id,
              paymentId: input.paymentId,
              transactionId: input.transactionId,
              teacherId: line.teacherId,
              classId: line.classId,
              title: line.title,
              studentInitials: initials,
              currency: input.currency,
              listCents: line.listCents,
              discountCents: line.discountCents,
              couponSource: line.discountCents > 0 ? couponSource : null,
              grossCents: line.paidCents,
              feeCents: splits[i]!.feeCents,
              shareCents: splits[i]!.shareCents,
              feeBasisPoints: basisPointsOf(line.teacherId),
              paidAt: input.paidAt,
            },
          ],
    ),
    tranches,
  });
}

/** What is left of a line's share, by bucket: held parts, and released parts (in available, or frozen). */
async function remainderOf(tx: Db, line: repo.LineRow) {
  const tranches = await repo.listTranchesOfLines(tx, [line.id]);
  const held = tranches.filter((t) => t.state === 'pending').reduce((sum, t) => sum + t.amountCents, 0);
  const released = tranches.filter((t) => t.state === 'released').reduce((sum, t) => sum + t.amountCents, 0);
  return { held, released };
}

/**
 * Takes back the shares of lines refunded (a refund, or a lost dispute): what is still held leaves
 * pending; what was released leaves available (or frozen, for a disputed line) — below 0 when it
 * was paid out already, a debt the teacher's next payouts recover first. Lines already clawed back
 * are skipped, so it is safe to run twice. Only the lines' own teachers are touched.
 */
export async function clawBackLines(
  tx: Db,
  input: { enrollmentIds: string[]; now: Date; kind: 'refund' | 'dispute_lost'; disputeId?: string | null },
): Promise<number> {
  const lines = await repo.lockLinesOfEnrollments(tx, input.enrollmentIds);
  const movements: repo.Movement[] = [];
  for (const line of lines) {
    const { held, released } = await remainderOf(tx, line);
    await repo.cancelOpenTranches(tx, line.id);
    await repo.updateLine(tx, line.id, {
      refundedAt: input.now,
      clawbackCents: held + released,
      frozenBy: null,
    });
    if (held + released === 0) continue;
    movements.push({
      teacherId: line.teacherId,
      kind: input.kind,
      lineId: line.id,
      disputeId: input.disputeId ?? null,
      pendingCents: -held,
      ...(line.frozenBy ? { frozenCents: -released } : { availableCents: -released }),
    });
  }
  await repo.applyMovements(tx, movements, input.now);
  return lines.length;
}

/**
 * A dispute opened: the lines' shares stop moving. Held parts are not released while frozen; what
 * was released moves from available to frozen (below 0 in available when it was paid out already,
 * so the next payouts hold it back until the dispute closes).
 */
export async function freezeLines(tx: Db, input: { enrollmentIds: string[]; disputeId: string; now: Date }) {
  const lines = await repo.lockLinesOfEnrollments(tx, input.enrollmentIds);
  const movements: repo.Movement[] = [];
  for (const line of lines) {
    if (line.frozenBy) continue;
    const { released } = await remainderOf(tx, line);
    await repo.updateLine(tx, line.id, { frozenBy: input.disputeId });
    if (released > 0) {
      movements.push({
        teacherId: line.teacherId,
        kind: 'freeze',
        lineId: line.id,
        disputeId: input.disputeId,
        availableCents: -released,
        frozenCents: released,
      });
    }
  }
  await repo.applyMovements(tx, movements, input.now);
}

/** A dispute won: the lines' shares move again, what was frozen is available again. */
export async function unfreezeLines(tx: Db, input: { enrollmentIds: string[]; disputeId: string; now: Date }) {
  const lines = await repo.lockLinesOfEnrollments(tx, input.enrollmentIds);
  const movements: repo.Movement[] = [];
  for (const line of lines) {
    if (line.frozenBy !== input.disputeId) continue;
    const { released } = await remainderOf(tx, line);
    await repo.updateLine(tx, line.id, { frozenBy: null });
    if (released > 0) {
      movements.push({
        teacherId: line.teacherId,
        kind: 'unfreeze',
        lineId: line.id,
        disputeId: input.disputeId,
        availableCents: released,
        frozenCents: -released,
      });
    }
  }
  await repo.applyMovements(tx, movements, input.now);
}

/**
 * Releases due held parts (pending → available), a batch at a time, each batch in one
 * transaction; several instances share the work (SKIP LOCKED). Answers how many were released.
 */
export async function releaseDue(db: Db, now: Date, batchSize = 500): Promise<number> {
  let released = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const due = await repo.claimDueTranches(tx, now, batchSize);
      await repo.markReleased(
        tx,
        due.map((t) => t.id),
        now,
      );
      await repo.applyMovements(
        tx,
        due
          .filter((t) => t.amountCents > 0)
          .map((t) => ({
            teacherId: t.teacherId,
            kind: 'release' as const,
            lineId: t.lineId,
            pendingCents: -t.amountCents,
            availableCents: t.amountCents,
          })),
        now,
      );
      return due.length;
    });
    released += count;
    if (count < batchSize) return released;
  }
}
