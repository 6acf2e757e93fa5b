import { centsToDecimal } from '@skillhive/shared/rules/money';
import type { ClassRosterEntry, CreateEnrollmentResponse, Enrollment } from '@skillhive/shared/contracts/enrollments';
import { DELETED_STUDENT_NAME, type EnrollmentStatus } from '@skillhive/shared/rules/constants';
import { ENROLLMENT_MESSAGES } from '@skillhive/shared/rules/messages';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import * as classes from '../classes/classes.public.ts';
import * as sections from '../sections/sections.public.ts';
import type { ImageStorage } from '../uploads/storage.public.ts';
import { findUserIdByEmail } from '../users/contact.public.ts';
import * as cart from './cart.repository.ts';
import * as repo from './enrollments.repository.ts';
import * as lines from './payment-lines.repository.ts';
import * as roster from './roster.repository.ts';
import { holdSeatForNewLine } from './seat-holds.ts';

export type { CartLine } from './cart.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are uuids in the database: anything else cannot exist, so it is a 404 and never a query (DESIGN §3). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function toEnrollment(row: repo.EnrollmentRow, storage: ImageStorage): Enrollment {
  return {
    _id: row.id,
    enrollId: row.classId,
    email: row.studentEmail,
    name: row.teacherName,
    title: row.title,
    image: storage.publicUrl(row.imageKey),
    // A pending line costs what its class costs now (it is priced again at checkout).
    price: centsToDecimal(
      row.status === 'pending' && row.classPriceCents !== null ? row.classPriceCents : row.priceCents,
    ),
    description: row.description,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    available: row.classStatus === 'accepted',
  };
}

/**
 * A new enrollment: the class's title, image, price, description and teacher name copied as the
 * student chose it (DESIGN §1.3), pending until paid. The seed builds its demo rows with it too.
 */
export function pendingEnrollmentOf(
  cls: Pick<classes.ClassForEnrollment, 'id' | 'teacherName' | 'title' | 'imageKey' | 'description' | 'priceCents'>,
  student: { id: string; email: string },
) {
  return {
    classId: cls.id,
    studentId: student.id,
    studentEmail: student.email,
    teacherName: cls.teacherName,
    title: cls.title,
    imageKey: cls.imageKey,
    description: cls.description,
    priceCents: cls.priceCents,
    status: 'pending' as const,
  };
}

/**
 * Enrolls the caller in an accepted class (spec §4 "Pay Now creates the enrollment record").
 * Title, image, price, description and teacher name are copied from the class, never read from
 * the request (DESIGN §1.3). One enrollment per student per class (DESIGN §1.4): the unique index
 * with ON CONFLICT DO NOTHING makes a double click — even two concurrent ones — create one row;
 * the second call answers the existing id. Enrolling in one's own class is a 409, a business
 * refusal (DESIGN §3): the caller is signed in and may enroll elsewhere.
 */
export async function enroll(
  db: Db,
  viewer: Viewer,
  classId: string,
  options: { sectionId?: string | undefined; now: Date; seatHoldMinutes: number },
): Promise<CreateEnrollmentResponse> {
  if (!isUuid(classId)) throw notFound('Class');
  return db.transaction(async (tx) => {
    // Locked so a concurrent deletion of the class cannot slip between this read and the insert.
    const cls = await classes.findClassForEnrollment(tx, classId, { lock: true });
    if (!cls) throw notFound('Class');
    if (cls.teacherId === viewer.id) throw conflict(ENROLLMENT_MESSAGES.ownClass);
    const existing = await repo.findEnrollmentOfStudentForClass(tx, viewer.id, classId);
    if (existing) return { insertedId: existing.id, created: false, status: existing.status };
    if (cls.status !== 'accepted') throw conflict(ENROLLMENT_MESSAGES.classNotOpen);
    // A live class is bought per section (decision 041); a self-paced class has none.
    const section = await sections.sectionForEnrollment(tx, classId, options.sectionId, options.now);
    // Carting a class of a section with seats holds one (decision 042); a full section is a 409.
    const seatHeldUntil = await holdSeatForNewLine(
      tx,
      section?.id ?? null,
      viewer.id,
      options.now,
      options.seatHoldMinutes,
    );
    const inserted = await repo.insertEnrollment(tx, {
      ...pendingEnrollmentOf(cls, viewer),
      sectionId: section?.id ?? null,
      seatHeldUntil,
    });
    if (inserted) {
      return { insertedId: inserted.id, created: true, status: inserted.status };
    }
    // A concurrent call won the insert; its row is committed by now (the insert waited for it).
    const winner = await repo.findEnrollmentOfStudentForClass(tx, viewer.id, classId);
    if (!winner) throw conflict('Please try again');
    return { insertedId: winner.id, created: false, status: winner.status };
  });
}

/** GET /api/enrolled/:email — the caller (or an admin) has been authorized by the route. */
export async function listEnrollmentsOf(
  db: Db,
  storage: ImageStorage,
  email: string,
  query: { page: number; limit: number; status?: EnrollmentStatus | undefined; classId?: string | undefined },
): Promise<{ items: Enrollment[]; total: number }> {
  const studentId = await findUserIdByEmail(db, email);
  if (!studentId) throw notFound('User');
  // A class id that is no uuid names no class: nothing of it was taken.
  if (query.classId !== undefined && !isUuid(query.classId)) return { items: [], total: 0 };
  const { rows, total } = await repo.listEnrollmentsOfStudent(db, {
    studentId,
    status: query.status,
    classId: query.classId,
    ...limitOffsetOf(query),
  });
  return { items: rows.map((row) => toEnrollment(row, storage)), total };
}

/**
 * Who enrolled in one of the teacher's classes, newest first, paid and pending. A
 * class of someone else is a 404 like an unknown one: the roster never confirms another teacher's
 * class exists. Admins read a class's figures through GET /api/classes/:id/stats instead.
 */
export async function listRosterOfClass(
  db: Db,
  teacher: Viewer,
  classId: string,
  query: { page: number; limit: number },
): Promise<{ items: ClassRosterEntry[]; total: number }> {
  if (!isUuid(classId)) throw notFound('Class');
  const cls = await classes.findClassForEnrollment(db, classId);
  if (!cls || cls.teacherId !== teacher.id) throw notFound('Class');
  const { rows, total } = await roster.listRosterOfClass(db, {
    classId,
    ...limitOffsetOf(query),
  });
  const items = rows.map((row) => ({
    enrollmentId: row.id,
    studentName: row.studentName ?? DELETED_STUDENT_NAME,
    studentEmail: row.studentEmail,
    status: row.status,
    enrolledAt: row.createdAt.toISOString(),
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    priceCents: row.priceCents,
    price: centsToDecimal(row.priceCents),
  }));
  return { items, total };
}

/**
 * Removes a pending enrollment from its student's cart (DESIGN §4: pending → removed by its
 * student). `sectionId` names the section whose seat it may have freed (the route tells the
 * waitlist, decision 051).
 */
export async function removeEnrollment(
  db: Db,
  viewer: Viewer,
  id: string,
): Promise<{ deletedCount: number; sectionId: string | null }> {
  if (!isUuid(id)) throw notFound('Enrollment');
  return db.transaction(async (tx) => {
    const row = await repo.findEnrollmentForUpdate(tx, id);
    if (!row) throw notFound('Enrollment');
    if (row.studentId !== viewer.id) throw forbidden(ENROLLMENT_MESSAGES.notYours);
    if (row.status !== 'pending') throw conflict(ENROLLMENT_MESSAGES.alreadyPaid);
    const deleted = await repo.deletePendingEnrollment(tx, id);
    if (!deleted) throw conflict(ENROLLMENT_MESSAGES.alreadyPaid);
    return { deletedCount: 1, sectionId: deleted.sectionId };
  });
}

// ---- Used by the payments and reviews features -------------------------------------------------

/** A pending line can be paid only while its class is accepted (decision 010; DESIGN §4). */
export function isPayable(line: Pick<cart.CartLine, 'status' | 'classStatus'>): boolean {
  return line.status === 'pending' && line.classStatus === 'accepted';
}

/** The caller's cart: pending enrollments, oldest first, payable or not (see isPayable). */
export function getPendingCart(db: Db, studentId: string): Promise<cart.CartLine[]> {
  return cart.listPendingOfStudent(db, studentId);
}

/**
 * The student's enrollments among `ids` (any state). With `lock` (inside a payment's transaction)
 * their classes are locked FOR KEY SHARE first — deleting or archiving a class locks it FOR UPDATE,
 * so its status cannot change under a payment — and then the lines FOR UPDATE. Classes before
 * enrollments is the order deleteClass takes them in too.
 */
export async function getCartLines(
  db: Db,
  studentId: string,
  ids: string[],
  options: { lock: boolean },
): Promise<cart.CartLine[]> {
  if (options.lock) await classes.lockClassesKeyShare(db, await cart.listClassIdsOfLines(db, studentId, ids));
  return cart.findEnrollmentsOfStudent(db, studentId, ids, options.lock);
}

/** Reserves the lines for one payment intent; the count tells whether it holds all of them. */
export function reserveLines(db: Db, options: { studentId: string; ids: string[]; intentId: string }): Promise<number> {
  return cart.reserveLines(db, options);
}

export function setReservedPrices(
  db: Db,
  options: { intentId: string; lines: { id: string; priceCents: number }[] },
): Promise<number> {
  return cart.setReservedPrices(db, options);
}

export function releaseLines(db: Db, intentId: string): Promise<void> {
  return cart.releaseLines(db, intentId);
}

/**
 * pending → paid for exactly these lines, each with what was paid for it (priceCart's paidCents);
 * the count tells the caller whether all of them flipped. A paid line is what the class's public
 * "students enrolled" counts (decision 003): a cart line is not a student.
 */
export async function markPaid(
  db: Db,
  options: { studentId: string; lines: readonly { id: string; paidCents: number }[]; paymentId: string; paidAt: Date },
): Promise<number> {
  const flipped = await lines.markEnrollmentsPaid(db, options);
  for (const line of flipped) await classes.adjustClassCounters(db, line.classId, { enrollments: 1 });
  return flipped.length;
}

/** The student's live (pending or paid) enrollment of a class, if any. */
export function findLiveEnrollmentFor(
  db: Db,
  studentId: string,
  classId: string,
): Promise<{ id: string; status: EnrollmentStatus } | null> {
  return repo.findEnrollmentOfStudentForClass(db, studentId, classId);
}

export function hasPaidFor(db: Db, studentId: string, classId: string): Promise<boolean> {
  return repo.hasPaidEnrollment(db, studentId, classId);
}

/** Whether a payment of the student for the class was refunded (what a refused page says). */
export function wasRefundedFor(db: Db, studentId: string, classId: string): Promise<boolean> {
  return repo.hasRefundedEnrollment(db, studentId, classId);
}

/**
 * `hasPaidFor` inside a transaction, holding the paid line (FOR SHARE) until it ends, so that a
 * refund of that line runs entirely before or entirely after the caller's writes.
 */
export function holdPaidEnrollment(tx: Db, studentId: string, classId: string): Promise<boolean> {
  return repo.lockPaidEnrollment(tx, studentId, classId);
}

/** A class's paid enrollments, those of deleted students included (the progress summary's "students enrolled"). */
export function countPaidEnrollmentsOfClass(db: Db, classId: string): Promise<number> {
  return roster.countPaidEnrollments(db, classId);
}

/**
 * Who may open a class's content and is told about it (decision 021): students whose line is paid
 * now; of one section when `sectionId` is given.
 */
export function listPaidStudentIdsOfClass(db: Db, classId: string, sectionId?: string): Promise<string[]> {
  return repo.listPaidStudentIds(db, classId, sectionId);
}

/**
 * The sections each paid student of a class is in (decision 053): null in the list when a paid
 * line names no section (bought before sections, or a self-paced class), who then follows all.
 */
export async function paidSectionsByStudent(db: Db, classId: string): Promise<Map<string, (string | null)[]>> {
  const out = new Map<string, (string | null)[]>();
  for (const { studentId, sectionId } of await repo.listPaidStudentSections(db, classId)) {
    out.set(studentId, [...(out.get(studentId) ?? []), sectionId]);
  }
  return out;
}

/** The sections of a class `studentId` has paid for: which sections' announcements they read. */
export function listPaidSectionIdsOf(db: Db, studentId: string, classId: string): Promise<string[]> {
  return repo.listPaidSectionIds(db, studentId, classId);
}

/** The next payments with a paid line, and every line of some payments with its teacher: the ledger's late recording (decision 039 §10). */
export function listPaymentsWithPaidLines(db: Db, options: { after: string | null; limit: number }): Promise<string[]> {
  return lines.listPaymentsWithPaidLines(db, options);
}

export function listSaleLinesOfPayments(db: Db, paymentIds: string[]): Promise<lines.SaleLineRow[]> {
  return lines.listSaleLinesOfPayments(db, paymentIds);
}

export function listTitlesOfEnrollments(db: Db, ids: string[]): Promise<string[]> {
  return lines.listTitlesOfEnrollments(db, ids);
}

export function listLinesOfPayments(db: Db, paymentIds: string[]) {
  return lines.listLinesOfPayments(db, paymentIds);
}

/** Before an account is deleted: its cart goes, its paid lines stay without the person (DESIGN §4) and still count. */
export async function forgetStudent(db: Db, studentId: string, pseudonym: string): Promise<void> {
  await repo.forgetStudent(db, studentId, pseudonym);
}

// ---- Used by the classes and users modules ----------------------------------------------------

/** Before a class is removed: its enrollments are locked; a paid one means it is archived instead. */
export function lockEnrollmentsOfClass(tx: Db, classId: string): Promise<{ anyPaid: boolean }> {
  return repo.lockEnrollmentsOfClass(tx, classId);
}

/** A class's enrollment figures (GET /api/classes/:id/stats). */
export function enrollmentTotalsOfClass(db: Db, classId: string) {
  return roster.enrollmentTotals(db, classId);
}

export function enrollmentsPerWeekOfClass(db: Db, classId: string, since: Date) {
  return roster.enrollmentsPerWeek(db, classId, since);
}

/** Whether other students paid for a class this user teaches (such an account is not deleted). */
export function teachesPaidEnrollments(db: Db, userId: string): Promise<boolean> {
  return repo.teachesPaidEnrollments(db, userId);
}

// ---- Used by the refunds module -----------------------------------------------

export type { PaidLine } from './payment-lines.repository.ts';

/** A payment's lines; with `lock` (inside a refund's transaction, after the payment row) FOR UPDATE. */
export function getLinesOfPayment(db: Db, paymentId: string, options: { lock: boolean }): Promise<lines.PaidLine[]> {
  return lines.findLinesOfPayment(db, paymentId, options.lock);
}

export function getLinesOfPayments(db: Db, paymentIds: string[]): Promise<lines.PaidLine[]> {
  return lines.findLinesOfPayments(db, paymentIds);
}

/** The paid lines of a section (decision 052: a cancelled section refunds each). */
export function getPaidLinesOfSection(db: Db, sectionId: string): Promise<lines.PaidLine[]> {
  return lines.findPaidLinesOfSection(db, sectionId);
}

/** Lines by id (unknown ids and non-uuids are left out). */
export function getLinesByIds(db: Db, ids: string[]): Promise<lines.PaidLine[]> {
  return lines.findLinesByIds(db, ids.filter(isUuid));
}

/**
 * paid → refunded (DESIGN §4): the line gives no access from now on and no longer counts as an
 * enrollment of its class, which the student may buy again. Call it in the refund's transaction.
 */
export async function markRefunded(db: Db, ids: string[], refundedAt: Date): Promise<string[]> {
  const flipped = await lines.markEnrollmentsRefunded(db, { ids, refundedAt });
  for (const line of flipped) await classes.adjustClassCounters(db, line.classId, { enrollments: -1 });
  return flipped.map((line) => line.id);
}

/** Seat holds (decision 042): renewed with each payment intent, claimed by the fulfilment, freed by a declined card. */
export { assertSeatsFree, claimSeats, holdSeatsForCart, releaseSeatHolds } from './seat-holds.ts';

/** Paid students per section of a class, and of one section (the sections module's editor and checks). */
export {
  attachEnrollmentsToSection,
  paidCountOfSection,
  paidCountsOfSections,
  releaseSeatHoldsOfSection,
  seatsTakenOfSection,
  seatsTakenOfSections,
} from './section-enrollments.repository.ts';
