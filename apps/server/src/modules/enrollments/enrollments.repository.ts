import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { EnrollmentStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import { enrollments } from '../../db/schema/enrollments.ts';
import { type ClassForEnrollment, classJoin } from '../classes/classes.public.ts';
import { userJoin } from '../users/contact.public.ts';

/**
 * What was paid for a line: `paid_cents`, which the database requires on every paid or refunded
 * line (enrollments_paid_cents); the lines of a payment are never pending, so it is never null here.
 */
const paidCentsOf = sql<number>`coalesce(${enrollments.paidCents}, 0)`.mapWith(Number);

/** The live lines (pending or paid): a refunded line is a record only (DESIGN §4). */
const isLive = isNull(enrollments.refundedAt);

/** Inserts unless the student already has a live enrollment for the class (unique index); null then. */
export async function insertEnrollment(
  db: Db,
  values: typeof enrollments.$inferInsert,
): Promise<{ id: string; status: EnrollmentStatus } | null> {
  const [row] = await db
    .insert(enrollments)
    .values(values)
    .onConflictDoNothing({ target: [enrollments.studentId, enrollments.classId], where: isLive })
    .returning({ id: enrollments.id, status: enrollments.status });
  return row ?? null;
}

export async function findEnrollmentOfStudentForClass(
  db: Db,
  studentId: string,
  classId: string,
): Promise<{ id: string; status: EnrollmentStatus } | null> {
  const [row] = await db
    .select({ id: enrollments.id, status: enrollments.status })
    .from(enrollments)
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.classId, classId), isLive));
  return row ?? null;
}

export type EnrollmentRow = {
  id: string;
  classId: string;
  /** Null once the student deleted their account (a kept financial record). */
  studentId: string | null;
  studentEmail: string;
  teacherName: string;
  title: string;
  imageKey: string;
  description: string;
  priceCents: number;
  status: EnrollmentStatus;
  paymentId: string | null;
  paidAt: Date | null;
  createdAt: Date;
  /** The class's status now: a pending line is payable only while it is accepted (decision 010). */
  classStatus: ClassForEnrollment['status'] | null;
  /** The class's approved price now: what a pending line costs (it is priced again at checkout). */
  classPriceCents: number | null;
};

const enrollmentColumns = {
  id: enrollments.id,
  classId: enrollments.classId,
  studentId: enrollments.studentId,
  studentEmail: enrollments.studentEmail,
  teacherName: enrollments.teacherName,
  title: enrollments.title,
  imageKey: enrollments.imageKey,
  description: enrollments.description,
  priceCents: enrollments.priceCents,
  status: enrollments.status,
  paymentId: enrollments.paymentId,
  paidAt: enrollments.paidAt,
  createdAt: enrollments.createdAt,
};

export async function listEnrollmentsOfStudent(
  db: Db,
  options: {
    studentId: string;
    status?: EnrollmentStatus | undefined;
    classId?: string | undefined;
    limit: number;
    offset: number;
  },
): Promise<{ rows: EnrollmentRow[]; total: number }> {
  const where = and(
    eq(enrollments.studentId, options.studentId),
    options.status ? eq(enrollments.status, options.status) : undefined,
    options.classId ? eq(enrollments.classId, options.classId) : undefined,
  );
  return withTotal(
    db
      .select({ ...enrollmentColumns, classStatus: classJoin.status, classPriceCents: classJoin.priceCents })
      .from(enrollments)
      .leftJoin(classJoin.table, eq(classJoin.id, enrollments.classId))
      .where(where)
      .orderBy(desc(enrollments.createdAt), desc(enrollments.id))
      .limit(options.limit)
      .offset(options.offset),
    { db, table: enrollments, where },
  );
}

/** The row, locked against a concurrent payment or removal until the transaction ends. */
export async function findEnrollmentForUpdate(
  db: Db,
  id: string,
): Promise<Omit<EnrollmentRow, 'classStatus' | 'classPriceCents'> | null> {
  const [row] = await db.select(enrollmentColumns).from(enrollments).where(eq(enrollments.id, id)).for('update');
  return row ?? null;
}

/** Deletes only while pending; null when it was paid (or removed) meanwhile. */
export async function deletePendingEnrollment(db: Db, id: string): Promise<{ classId: string } | null> {
  const [row] = await db
    .delete(enrollments)
    .where(and(eq(enrollments.id, id), eq(enrollments.status, 'pending')))
    .returning({ classId: enrollments.classId });
  return row ?? null;
}

export type CartLine = {
  id: string;
  classId: string;
  priceCents: number;
  status: EnrollmentStatus;
  /** The class's current status (a pending line is payable only while it is accepted). */
  classStatus: ClassForEnrollment['status'];
  /** The open payment intent this line is reserved for, if any. */
  reservedBy: string | null;
  /** Who teaches the class (a teacher's coupon applies only to their classes). */
  teacherId: string;
  /** The class's approved price now; a pending line is priced at it when its intent is created. */
  currentPriceCents: number;
};

const cartColumns = {
  id: enrollments.id,
  classId: enrollments.classId,
  priceCents: enrollments.priceCents,
  status: enrollments.status,
  classStatus: classJoin.status,
  reservedBy: enrollments.reservedBy,
  teacherId: classJoin.teacherId,
  currentPriceCents: classJoin.priceCents,
};

/** The student's cart: pending enrollments, oldest first, with their class's status. */
export async function listPendingOfStudent(db: Db, studentId: string): Promise<CartLine[]> {
  return db
    .select(cartColumns)
    .from(enrollments)
    .innerJoin(classJoin.table, eq(classJoin.id, enrollments.classId))
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.status, 'pending')))
    .orderBy(asc(enrollments.createdAt), asc(enrollments.id));
}

/** The classes of the student's enrollments among `ids` (to lock them before the lines). */
export async function listClassIdsOfLines(db: Db, studentId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectDistinct({ id: enrollments.classId })
    .from(enrollments)
    .where(and(eq(enrollments.studentId, studentId), inArray(enrollments.id, ids)));
  return rows.map((r) => r.id);
}

/**
 * The student's enrollments among `ids`, whatever their state, with their class's status. With
 * `lock` (inside a payment's transaction, after the service locked their classes) the lines are
 * locked FOR UPDATE: a concurrent payment of the same lines waits, then sees them paid.
 */
export async function findEnrollmentsOfStudent(
  db: Db,
  studentId: string,
  ids: string[],
  lock: boolean,
): Promise<CartLine[]> {
  if (ids.length === 0) return [];
  const mine = and(eq(enrollments.studentId, studentId), inArray(enrollments.id, ids));
  const query = db
    .select(cartColumns)
    .from(enrollments)
    .innerJoin(classJoin.table, eq(classJoin.id, enrollments.classId))
    .where(mine)
    .orderBy(asc(enrollments.id));
  return lock ? query.for('update', { of: enrollments }) : query;
}

/**
 * Reserves pending lines for one payment intent (decision 010): only lines that are free or
 * already its own; returns how many it holds now. Fewer than asked means another intent holds one.
 */
export async function reserveLines(
  db: Db,
  options: { studentId: string; ids: string[]; intentId: string },
): Promise<number> {
  const rows = await db
    .update(enrollments)
    .set({ reservedBy: options.intentId })
    .where(
      and(
        eq(enrollments.studentId, options.studentId),
        inArray(enrollments.id, options.ids),
        eq(enrollments.status, 'pending'),
        or(isNull(enrollments.reservedBy), eq(enrollments.reservedBy, options.intentId)),
      ),
    )
    .returning({ id: enrollments.id });
  return rows.length;
}

/**
 * Writes the price an intent was created at into the lines it just reserved (their class's price
 * changed since they were carted), so its fulfilment prices them the same way. Answers how many.
 */
export async function setReservedPrices(
  db: Db,
  options: { intentId: string; lines: { id: string; priceCents: number }[] },
): Promise<number> {
  let updated = 0;
  for (const line of options.lines) {
    const rows = await db
      .update(enrollments)
      .set({ priceCents: line.priceCents })
      .where(
        and(
          eq(enrollments.id, line.id),
          eq(enrollments.status, 'pending'),
          eq(enrollments.reservedBy, options.intentId),
        ),
      )
      .returning({ id: enrollments.id });
    updated += rows.length;
  }
  return updated;
}

/** Frees every line an intent held (it was cancelled or refunded). */
export async function releaseLines(db: Db, intentId: string): Promise<void> {
  await db.update(enrollments).set({ reservedBy: null }).where(eq(enrollments.reservedBy, intentId));
}

/** The class titles of these enrollments (those still there), for a mail about them. */
export async function listTitlesOfEnrollments(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ title: enrollments.title })
    .from(enrollments)
    .where(inArray(enrollments.id, ids))
    .orderBy(asc(enrollments.title));
  return rows.map((r) => r.title);
}

/**
 * Flips exactly these enrollments from pending to paid, each with what was paid for it (one
 * statement: a CASE over the ids); returns how many were flipped.
 */
export async function markEnrollmentsPaid(
  db: Db,
  options: { studentId: string; lines: readonly { id: string; paidCents: number }[]; paymentId: string; paidAt: Date },
): Promise<{ id: string; classId: string }[]> {
  if (options.lines.length === 0) return [];
  const paidCents = sql<number>`(case ${sql.join(
    options.lines.map((line) => sql`when ${enrollments.id} = ${line.id}::uuid then ${line.paidCents}::integer`),
    sql` `,
  )} end)`;
  const rows = await db
    .update(enrollments)
    .set({ status: 'paid', paymentId: options.paymentId, paidAt: options.paidAt, reservedBy: null, paidCents })
    .where(
      and(
        eq(enrollments.studentId, options.studentId),
        inArray(
          enrollments.id,
          options.lines.map((line) => line.id),
        ),
        eq(enrollments.status, 'pending'),
      ),
    )
    .returning({ id: enrollments.id, classId: enrollments.classId });
  return rows;
}

export async function hasPaidEnrollment(db: Db, studentId: string, classId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.classId, classId), eq(enrollments.status, 'paid')))
    .limit(1);
  return Boolean(row);
}

export async function hasRefundedEnrollment(db: Db, studentId: string, classId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(
      and(eq(enrollments.studentId, studentId), eq(enrollments.classId, classId), eq(enrollments.status, 'refunded')),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Whether the student's enrollment in the class is paid, its row locked FOR SHARE until the
 * transaction ends: a refund (which locks it FOR UPDATE) waits for the caller, or the caller for it.
 */
export async function lockPaidEnrollment(db: Db, studentId: string, classId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.classId, classId), eq(enrollments.status, 'paid')))
    .limit(1)
    .for('share');
  return Boolean(row);
}

/** The students with a paid enrollment in a class (class content, decision 021): ids only, one each. */
export async function listPaidStudentIds(db: Db, classId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ studentId: enrollments.studentId })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), eq(enrollments.status, 'paid'), isNotNull(enrollments.studentId)));
  return rows.flatMap((row) => (row.studentId ? [row.studentId] : []));
}

/**
 * Paid enrollments of a class, deleted students' pseudonymised lines included: the class's enrolled
 * figure, which a student deleting their account does not change (financial records are kept).
 */
export async function countPaidEnrollments(db: Db, classId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), eq(enrollments.status, 'paid')));
  return row?.n ?? 0;
}

/** The paid lines of some payments (title as enrolled, what was paid for each), for receipts and GET /api/payments/:email. */
export async function listLinesOfPayments(
  db: Db,
  paymentIds: string[],
): Promise<{ paymentId: string; classId: string; title: string; priceCents: number; paidCents: number }[]> {
  if (paymentIds.length === 0) return [];
  const rows = await db
    .select({
      paymentId: enrollments.paymentId,
      classId: enrollments.classId,
      title: enrollments.title,
      priceCents: enrollments.priceCents,
      paidCents: paidCentsOf,
    })
    .from(enrollments)
    .where(inArray(enrollments.paymentId, paymentIds))
    .orderBy(asc(enrollments.title), asc(enrollments.id));
  return rows.flatMap((r) => (r.paymentId ? [{ ...r, paymentId: r.paymentId }] : []));
}

export type RosterRow = {
  id: string;
  /** The account's current name; null once the account is deleted. */
  studentName: string | null;
  studentEmail: string;
  status: EnrollmentStatus;
  priceCents: number;
  createdAt: Date;
  paidAt: Date | null;
};

/**
 * One page of a class's enrollments, every status, newest first, with each student's current name
 * (enrollments_class_idx finds the class's lines).
 */
export async function listRosterOfClass(
  db: Db,
  options: { classId: string; limit: number; offset: number },
): Promise<{ rows: RosterRow[]; total: number }> {
  const where = eq(enrollments.classId, options.classId);
  return withTotal(
    db
      .select({
        id: enrollments.id,
        studentName: userJoin.name,
        studentEmail: enrollments.studentEmail,
        status: enrollments.status,
        priceCents: enrollments.priceCents,
        createdAt: enrollments.createdAt,
        paidAt: enrollments.paidAt,
      })
      .from(enrollments)
      .leftJoin(userJoin.table, eq(userJoin.id, enrollments.studentId))
      .where(where)
      .orderBy(desc(enrollments.createdAt), desc(enrollments.id))
      .limit(options.limit)
      .offset(options.offset),
    { db, table: enrollments, where },
  );
}

/**
 * A deleted account's enrollments (DESIGN §4: financial rows outlive the account): pending ones are removed (the service
 * adjusts their class counters); paid ones stay, cut from the person (the foreign key sets
 * student_id null when the user row goes), with the e-mail replaced by `pseudonym`. Returns the
 * classes of the removed lines.
 */
export async function forgetStudent(db: Db, studentId: string, pseudonym: string): Promise<string[]> {
  const removed = await db
    .delete(enrollments)
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.status, 'pending')))
    .returning({ classId: enrollments.classId });
  await db.update(enrollments).set({ studentEmail: pseudonym }).where(eq(enrollments.studentId, studentId));
  return removed.map((r) => r.classId);
}

/**
 * Locks every enrollment of a class FOR UPDATE before the class is removed, so a payment cannot
 * turn one to paid between the check and the delete; answers whether any is paid.
 */
export async function lockEnrollmentsOfClass(tx: Db, classId: string): Promise<{ anyPaid: boolean }> {
  const rows = await tx
    .select({ status: enrollments.status })
    .from(enrollments)
    .where(eq(enrollments.classId, classId))
    .for('update');
  // A refunded line is a financial record too (its payment and refund point at it): archive.
  return { anyPaid: rows.some((e) => e.status === 'paid' || e.status === 'refunded') };
}

/** Whether any class taught by this user has a paid enrollment (other students' purchases). */
export async function teachesPaidEnrollments(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: enrollments.id })
    .from(enrollments)
    .innerJoin(classJoin.table, eq(classJoin.id, enrollments.classId))
    .where(and(eq(classJoin.teacherId, userId), eq(enrollments.status, 'paid'), ne(enrollments.studentId, userId)))
    .limit(1);
  return row !== undefined;
}

export async function enrollmentTotals(
  db: Db,
  classId: string,
): Promise<{ enrolled: number; paid: number; revenueCents: number }> {
  const isPaid = sql`${enrollments.status} = 'paid'`;
  const [row] = await db
    .select({
      enrolled: count(),
      paid: sql<number>`count(*) filter (where ${isPaid})`.mapWith(Number),
      revenueCents: sql<number>`coalesce(sum(${enrollments.paidCents}) filter (where ${isPaid}), 0)`.mapWith(Number),
    })
    .from(enrollments)
    .where(eq(enrollments.classId, classId));
  return row ?? { enrolled: 0, paid: 0, revenueCents: 0 };
}

/** Enrollments per ISO week (Monday start, UTC) since `since`, as { week: 'YYYY-MM-DD', n }. */
export async function enrollmentsPerWeek(db: Db, classId: string, since: Date): Promise<{ week: string; n: number }[]> {
  const week = sql<string>`to_char(date_trunc('week', ${enrollments.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
  return db
    .select({ week, n: count() })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), gte(enrollments.createdAt, since)))
    .groupBy(week);
}

export type PaidLine = {
  id: string;
  classId: string;
  studentId: string | null;
  studentEmail: string;
  title: string;
  /** The class price copied at enrollment (before any coupon), in cents. */
  priceCents: number;
  /** What the student paid for this line, in cents (decision 019): what a refund of it gives back. */
  paidCents: number;
  status: EnrollmentStatus;
  paymentId: string | null;
  paidAt: Date | null;
};

const paidLineColumns = {
  id: enrollments.id,
  classId: enrollments.classId,
  studentId: enrollments.studentId,
  studentEmail: enrollments.studentEmail,
  title: enrollments.title,
  priceCents: enrollments.priceCents,
  paidCents: paidCentsOf,
  status: enrollments.status,
  paymentId: enrollments.paymentId,
  paidAt: enrollments.paidAt,
};

/** The lines of one payment (paid or refunded), locked FOR UPDATE with `lock` (inside a refund). */
export async function findLinesOfPayment(db: Db, paymentId: string, lock: boolean): Promise<PaidLine[]> {
  const query = db
    .select(paidLineColumns)
    .from(enrollments)
    .where(eq(enrollments.paymentId, paymentId))
    .orderBy(asc(enrollments.id));
  return lock ? query.for('update') : query;
}

/** The lines of several payments, for the admin's search. */
export async function findLinesOfPayments(db: Db, paymentIds: string[]): Promise<PaidLine[]> {
  if (paymentIds.length === 0) return [];
  return db
    .select(paidLineColumns)
    .from(enrollments)
    .where(inArray(enrollments.paymentId, paymentIds))
    .orderBy(asc(enrollments.title), asc(enrollments.id));
}

export async function findLinesByIds(db: Db, ids: string[]): Promise<PaidLine[]> {
  if (ids.length === 0) return [];
  return db.select(paidLineColumns).from(enrollments).where(inArray(enrollments.id, ids));
}

/** paid → refunded for exactly these lines; answers the lines flipped (with their class). */
export async function markEnrollmentsRefunded(
  db: Db,
  options: { ids: string[]; refundedAt: Date },
): Promise<{ id: string; classId: string }[]> {
  if (options.ids.length === 0) return [];
  return db
    .update(enrollments)
    .set({ status: 'refunded', refundedAt: options.refundedAt })
    .where(and(inArray(enrollments.id, options.ids), eq(enrollments.status, 'paid')))
    .returning({ id: enrollments.id, classId: enrollments.classId });
}
