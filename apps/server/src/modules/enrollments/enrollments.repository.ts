import { and, asc, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { EnrollmentStatus } from '@skillhive/shared/constants';
import type { Db } from '../../db/client.ts';
import { schema } from '../../db/client.ts';

const { classes, enrollments, users } = schema;

/** What an enrolment copies from its class (spec §3), plus who owns the class and whether it is open. */
export type ClassForEnrollment = {
  id: string;
  teacherId: string;
  teacherName: string;
  title: string;
  description: string;
  priceCents: number;
  imageKey: string;
  status: 'pending' | 'accepted' | 'rejected' | 'archived';
};

/**
 * With `lock`, the class row is held FOR KEY SHARE until the transaction ends: deleting the class
 * (which locks it FOR UPDATE first) waits for the enrolment to commit, or the enrolment waits for
 * the deletion and then finds no class — never a foreign-key violation (a 500) in between.
 */
export async function findClassForEnrollment(
  db: Db,
  classId: string,
  options: { lock: boolean } = { lock: false },
): Promise<ClassForEnrollment | null> {
  const query = db
    .select({
      id: classes.id,
      teacherId: classes.teacherId,
      teacherName: classes.teacherName,
      title: classes.title,
      description: classes.description,
      priceCents: classes.priceCents,
      imageKey: classes.imageKey,
      status: classes.status,
    })
    .from(classes)
    .where(eq(classes.id, classId));
  const [row] = options.lock ? await query.for('key share') : await query;
  return row ?? null;
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id ?? null;
}

/** Inserts unless the student already has an enrolment for the class (unique index); null then. */
export async function insertEnrollment(
  db: Db,
  values: typeof enrollments.$inferInsert,
): Promise<{ id: string; status: EnrollmentStatus } | null> {
  const [row] = await db
    .insert(enrollments)
    .values(values)
    .onConflictDoNothing({ target: [enrollments.studentId, enrollments.classId] })
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
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.classId, classId)));
  return row ?? null;
}

/** Keeps classes.enrollment_count in step; call in the transaction that adds or removes the row. */
export async function adjustEnrollmentCount(db: Db, classId: string, delta: 1 | -1): Promise<void> {
  await db
    .update(classes)
    .set({ enrollmentCount: sql`greatest(${classes.enrollmentCount} + ${delta}, 0)` })
    .where(eq(classes.id, classId));
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
  options: { studentId: string; status?: EnrollmentStatus | undefined; limit: number; offset: number },
): Promise<{ rows: EnrollmentRow[]; total: number }> {
  const where = and(
    eq(enrollments.studentId, options.studentId),
    options.status ? eq(enrollments.status, options.status) : undefined,
  );
  const [rows, totals] = await Promise.all([
    db
      .select({ ...enrollmentColumns, classStatus: classes.status })
      .from(enrollments)
      .leftJoin(classes, eq(classes.id, enrollments.classId))
      .where(where)
      .orderBy(desc(enrollments.createdAt), desc(enrollments.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(enrollments).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** The row, locked against a concurrent payment or removal until the transaction ends. */
export async function findEnrollmentForUpdate(db: Db, id: string): Promise<Omit<EnrollmentRow, 'classStatus'> | null> {
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
};

const cartColumns = {
  id: enrollments.id,
  classId: enrollments.classId,
  priceCents: enrollments.priceCents,
  status: enrollments.status,
  classStatus: classes.status,
  reservedBy: enrollments.reservedBy,
};

/** The student's cart: pending enrolments, oldest first, with their class's status. */
export async function listPendingOfStudent(db: Db, studentId: string): Promise<CartLine[]> {
  return db
    .select(cartColumns)
    .from(enrollments)
    .innerJoin(classes, eq(classes.id, enrollments.classId))
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.status, 'pending')))
    .orderBy(asc(enrollments.createdAt), asc(enrollments.id));
}

/**
 * The student's enrolments among `ids`, whatever their state. With `lock` (inside a payment's
 * transaction) their classes are locked FOR KEY SHARE first — deleting or archiving a class locks
 * it FOR UPDATE, so its status cannot change under a payment — and then the lines FOR UPDATE (a
 * concurrent payment of the same lines waits, then sees them paid). Classes before enrolments is
 * the order removeClass takes them in too.
 */
export async function findEnrollmentsOfStudent(
  db: Db,
  studentId: string,
  ids: string[],
  lock: boolean,
): Promise<CartLine[]> {
  if (ids.length === 0) return [];
  const mine = and(eq(enrollments.studentId, studentId), inArray(enrollments.id, ids));
  if (lock) {
    const classIds = await db.selectDistinct({ id: enrollments.classId }).from(enrollments).where(mine);
    if (classIds.length > 0) {
      await db
        .select({ id: classes.id })
        .from(classes)
        .where(
          inArray(
            classes.id,
            classIds.map((c) => c.id),
          ),
        )
        .orderBy(asc(classes.id))
        .for('key share');
    }
  }
  const query = db
    .select(cartColumns)
    .from(enrollments)
    .innerJoin(classes, eq(classes.id, enrollments.classId))
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

/** Frees every line an intent held (it was cancelled or refunded). */
export async function releaseLines(db: Db, intentId: string): Promise<void> {
  await db.update(enrollments).set({ reservedBy: null }).where(eq(enrollments.reservedBy, intentId));
}

/** The class titles of these enrolments (those still there), for a mail about them. */
export async function listTitlesOfEnrollments(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ title: enrollments.title })
    .from(enrollments)
    .where(inArray(enrollments.id, ids))
    .orderBy(asc(enrollments.title));
  return rows.map((r) => r.title);
}

/** Flips exactly these enrolments from pending to paid; returns how many were flipped. */
export async function markEnrollmentsPaid(
  db: Db,
  options: { studentId: string; ids: string[]; paymentId: string; paidAt: Date },
): Promise<number> {
  const rows = await db
    .update(enrollments)
    .set({ status: 'paid', paymentId: options.paymentId, paidAt: options.paidAt, reservedBy: null })
    .where(
      and(
        eq(enrollments.studentId, options.studentId),
        inArray(enrollments.id, options.ids),
        eq(enrollments.status, 'pending'),
      ),
    )
    .returning({ id: enrollments.id });
  return rows.length;
}

export async function hasPaidEnrollment(db: Db, studentId: string, classId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.classId, classId), eq(enrollments.status, 'paid')))
    .limit(1);
  return Boolean(row);
}

/** The paid lines of some payments, for the payment history (title and price as enrolled). */
export async function listLinesOfPayments(
  db: Db,
  paymentIds: string[],
): Promise<{ paymentId: string; classId: string; title: string; priceCents: number }[]> {
  if (paymentIds.length === 0) return [];
  const rows = await db
    .select({
      paymentId: enrollments.paymentId,
      classId: enrollments.classId,
      title: enrollments.title,
      priceCents: enrollments.priceCents,
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
 * One page of a class's enrolments, every status, newest first, with each student's current name
 * (enrollments_class_idx finds the class's lines).
 */
export async function listRosterOfClass(
  db: Db,
  options: { classId: string; limit: number; offset: number },
): Promise<{ rows: RosterRow[]; total: number }> {
  const where = eq(enrollments.classId, options.classId);
  const [rows, totals] = await Promise.all([
    db
      .select({
        id: enrollments.id,
        studentName: users.name,
        studentEmail: enrollments.studentEmail,
        status: enrollments.status,
        priceCents: enrollments.priceCents,
        createdAt: enrollments.createdAt,
        paidAt: enrollments.paidAt,
      })
      .from(enrollments)
      .leftJoin(users, eq(users.id, enrollments.studentId))
      .where(where)
      .orderBy(desc(enrollments.createdAt), desc(enrollments.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(enrollments).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/**
 * A deleted account's enrolments (security issue §10): pending ones are removed with their class
 * counters; paid ones stay, cut from the person (the foreign key sets student_id null when the
 * user row goes), with the e-mail replaced by `pseudonym`.
 */
export async function forgetStudent(db: Db, studentId: string, pseudonym: string): Promise<void> {
  const removed = await db
    .delete(enrollments)
    .where(and(eq(enrollments.studentId, studentId), eq(enrollments.status, 'pending')))
    .returning({ classId: enrollments.classId });
  for (const { classId } of removed) await adjustEnrollmentCount(db, classId, -1);
  await db.update(enrollments).set({ studentEmail: pseudonym }).where(eq(enrollments.studentId, studentId));
}
