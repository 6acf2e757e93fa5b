import { and, desc, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import type { EnrollmentStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import { enrollments } from '../../db/schema/enrollments.ts';
import { type ClassForEnrollment, classJoin } from '../classes/classes.public.ts';

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
export async function deletePendingEnrollment(
  db: Db,
  id: string,
): Promise<{ classId: string; sectionId: string | null } | null> {
  const [row] = await db
    .delete(enrollments)
    .where(and(eq(enrollments.id, id), eq(enrollments.status, 'pending')))
    .returning({ classId: enrollments.classId, sectionId: enrollments.sectionId });
  return row ?? null;
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
export async function listPaidStudentIds(db: Db, classId: string, sectionId?: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ studentId: enrollments.studentId })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.classId, classId),
        sectionId ? eq(enrollments.sectionId, sectionId) : undefined,
        eq(enrollments.status, 'paid'),
        isNotNull(enrollments.studentId),
      ),
    );
  return rows.flatMap((row) => (row.studentId ? [row.studentId] : []));
}

/** Each paid student of a class with the section of each of their paid lines (null: a line naming none). */
export async function listPaidStudentSections(
  db: Db,
  classId: string,
): Promise<{ studentId: string; sectionId: string | null }[]> {
  const rows = await db
    .selectDistinct({ studentId: enrollments.studentId, sectionId: enrollments.sectionId })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), eq(enrollments.status, 'paid'), isNotNull(enrollments.studentId)));
  return rows.flatMap((row) => (row.studentId ? [{ studentId: row.studentId, sectionId: row.sectionId }] : []));
}

/** The sections of a class a student has paid for (decision 041; none for a self-paced class). */
export async function listPaidSectionIds(db: Db, studentId: string, classId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ sectionId: enrollments.sectionId })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), eq(enrollments.studentId, studentId), eq(enrollments.status, 'paid')));
  return rows.flatMap((row) => (row.sectionId ? [row.sectionId] : []));
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
