import { and, count, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reviewReplies, reviews } from '../../db/schema/reviews.ts';
import { classJoin } from '../classes/classes.public.ts';
import { userJoin } from '../users/contact.public.ts';

export type ReviewListRow = {
  id: string;
  rating: number;
  details: string;
  createdAt: Date;
  classId: string;
  classTitle: string;
  reviewerName: string;
  reviewerImage: string | null;
  replyId: string | null;
  replyText: string | null;
  replyCreatedAt: Date | null;
  replyUpdatedAt: Date | null;
};

export async function listReviews(
  db: Db,
  options: { classId?: string | undefined; limit: number; offset: number },
): Promise<{ rows: ReviewListRow[]; total: number }> {
  // Hidden reviews and the reviews of hidden classes are on no public list (decision 043).
  const where = and(
    options.classId ? eq(reviews.classId, options.classId) : undefined,
    isNull(reviews.hiddenAt),
    ne(classJoin.status, 'hidden'),
  );
  const page = db
    .select({
      id: reviews.id,
      rating: reviews.rating,
      details: reviews.details,
      createdAt: reviews.createdAt,
      classId: reviews.classId,
      classTitle: classJoin.title,
      reviewerName: userJoin.name,
      reviewerImage: userJoin.image,
      replyId: reviewReplies.id,
      replyText: reviewReplies.text,
      replyCreatedAt: reviewReplies.createdAt,
      replyUpdatedAt: reviewReplies.updatedAt,
    })
    .from(reviews)
    .innerJoin(classJoin.table, eq(classJoin.id, reviews.classId))
    .innerJoin(userJoin.table, eq(userJoin.id, reviews.studentId))
    // A reply an admin hid is shown nowhere (decision 046).
    .leftJoin(reviewReplies, and(eq(reviewReplies.reviewId, reviews.id), isNull(reviewReplies.hiddenAt)))
    .where(where)
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(options.limit)
    .offset(options.offset);
  const total = db
    .select({ n: count() })
    .from(reviews)
    .innerJoin(classJoin.table, eq(classJoin.id, reviews.classId))
    .where(where);
  const [rows, totals] = await Promise.all([page, total]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** A student's own reviews, newest first (reviews_student_class_idx finds them), hidden ones included. */
export async function listReviewsOfStudent(
  db: Db,
  options: { studentId: string; classId?: string | undefined; limit: number; offset: number },
) {
  const where = and(
    eq(reviews.studentId, options.studentId),
    options.classId ? eq(reviews.classId, options.classId) : undefined,
  );
  const page = db
    .select({
      id: reviews.id,
      classId: reviews.classId,
      rating: reviews.rating,
      details: reviews.details,
      hiddenAt: reviews.hiddenAt,
      createdAt: reviews.createdAt,
      updatedAt: reviews.updatedAt,
    })
    .from(reviews)
    .where(where)
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(options.limit)
    .offset(options.offset);
  const total = db.select({ n: count() }).from(reviews).where(where);
  const [rows, totals] = await Promise.all([page, total]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** How many reviews of the class gave each number of stars (reviews_class_created_idx). */
export async function countRatingsOfClass(db: Db, classId: string): Promise<{ rating: number; n: number }[]> {
  return db
    .select({ rating: reviews.rating, n: count() })
    .from(reviews)
    .where(and(eq(reviews.classId, classId), isNull(reviews.hiddenAt)))
    .groupBy(reviews.rating);
}

/** The student's review of the class, locked so a concurrent edit adjusts the rating from the right value. */
export async function findReviewForUpdate(
  db: Db,
  studentId: string,
  classId: string,
): Promise<{ id: string; rating: number; isHidden: boolean } | null> {
  const [row] = await db
    .select({ id: reviews.id, rating: reviews.rating, isHidden: sql<boolean>`${reviews.hiddenAt} is not null` })
    .from(reviews)
    .where(and(eq(reviews.studentId, studentId), eq(reviews.classId, classId)))
    .for('update');
  return row ?? null;
}

/** Null when the student reviewed the class meanwhile (unique index). */
export async function insertReview(
  db: Db,
  values: { classId: string; studentId: string; rating: number; details: string },
): Promise<string | null> {
  const [row] = await db
    .insert(reviews)
    .values(values)
    .onConflictDoNothing({ target: [reviews.studentId, reviews.classId] })
    .returning({ id: reviews.id });
  return row?.id ?? null;
}

export async function updateReview(
  db: Db,
  id: string,
  values: { rating: number; details: string; updatedAt: Date },
): Promise<void> {
  await db.update(reviews).set(values).where(eq(reviews.id, id));
}

/** Removes the student's review of the class; answers its rating (and whether it was hidden), or null when there was none. */
export async function deleteReview(
  db: Db,
  studentId: string,
  classId: string,
): Promise<{ rating: number; isHidden: boolean } | null> {
  const [row] = await db
    .delete(reviews)
    .where(and(eq(reviews.studentId, studentId), eq(reviews.classId, classId)))
    .returning({ rating: reviews.rating, isHidden: sql<boolean>`${reviews.hiddenAt} is not null` });
  return row ?? null;
}

/**
 * Removes every review by a student; returns what each counted for, so the service takes them out
 * of their classes' ratings in the same transaction.
 */
export async function deleteReviewsOf(
  db: Db,
  studentId: string,
): Promise<{ classId: string; rating: number; isHidden: boolean }[]> {
  return db
    .delete(reviews)
    .where(eq(reviews.studentId, studentId))
    .returning({
      classId: reviews.classId,
      rating: reviews.rating,
      isHidden: sql<boolean>`${reviews.hiddenAt} is not null`,
    });
}

/** A review as a report names it (decision 043): its author, class and text. */
export async function findReviewSummary(db: Db, id: string) {
  const [row] = await db
    .select({
      id: reviews.id,
      studentId: reviews.studentId,
      classId: reviews.classId,
      details: reviews.details,
      rating: reviews.rating,
      hiddenAt: reviews.hiddenAt,
      authorName: userJoin.name,
    })
    .from(reviews)
    .innerJoin(userJoin.table, eq(userJoin.id, reviews.studentId))
    .where(eq(reviews.id, id));
  return row ?? null;
}

/** Hides reviews not hidden yet (one, or all of an author's); answers what each counted for. */
export async function hideReviews(
  db: Db,
  which: { reviewId: string } | { studentId: string },
  reason: 'content' | 'suspension',
  now: Date,
): Promise<{ classId: string; rating: number }[]> {
  const target = 'reviewId' in which ? eq(reviews.id, which.reviewId) : eq(reviews.studentId, which.studentId);
  return db
    .update(reviews)
    .set({ hiddenAt: now, hiddenReason: reason })
    .where(and(target, isNull(reviews.hiddenAt)))
    .returning({ classId: reviews.classId, rating: reviews.rating });
}

/** Shows again the reviews a lifted suspension hid; answers what each counts for. */
export async function restoreSuspendedReviews(
  db: Db,
  studentId: string,
): Promise<{ classId: string; rating: number }[]> {
  return db
    .update(reviews)
    .set({ hiddenAt: null, hiddenReason: null })
    .where(and(eq(reviews.studentId, studentId), eq(reviews.hiddenReason, 'suspension')))
    .returning({ classId: reviews.classId, rating: reviews.rating });
}

/**
 * A review as its class's teacher answers it (decision 046): found only when `teacherId` teaches
 * the review's class, with whether it already has a reply. Hidden reviews are not answered.
 */
export async function findReviewOfTeacher(
  db: Db,
  reviewId: string,
  teacherId: string,
): Promise<{ id: string; replyId: string | null; replyHiddenAt: Date | null } | null> {
  const [row] = await db
    .select({ id: reviews.id, replyId: reviewReplies.id, replyHiddenAt: reviewReplies.hiddenAt })
    .from(reviews)
    .innerJoin(classJoin.table, eq(classJoin.id, reviews.classId))
    .leftJoin(reviewReplies, eq(reviewReplies.reviewId, reviews.id))
    .where(and(eq(reviews.id, reviewId), eq(classJoin.teacherId, teacherId), isNull(reviews.hiddenAt)));
  return row ?? null;
}

/** Null when the review has a reply already (one per review, its unique index). */
export async function insertReply(
  db: Db,
  values: { reviewId: string; teacherId: string; text: string },
): Promise<{ id: string; createdAt: Date; updatedAt: Date } | null> {
  const [row] = await db
    .insert(reviewReplies)
    .values(values)
    .onConflictDoNothing({ target: reviewReplies.reviewId })
    .returning({ id: reviewReplies.id, createdAt: reviewReplies.createdAt, updatedAt: reviewReplies.updatedAt });
  return row ?? null;
}

/** Null when the review has no reply. */
export async function updateReply(
  db: Db,
  reviewId: string,
  values: { text: string; updatedAt: Date },
): Promise<{ id: string; createdAt: Date; updatedAt: Date } | null> {
  const [row] = await db
    .update(reviewReplies)
    .set(values)
    .where(eq(reviewReplies.reviewId, reviewId))
    .returning({ id: reviewReplies.id, createdAt: reviewReplies.createdAt, updatedAt: reviewReplies.updatedAt });
  return row ?? null;
}

/** A reply as a report names it (decision 046): its text, its teacher and its review's class. */
export async function findReplySummary(db: Db, id: string) {
  const [row] = await db
    .select({
      id: reviewReplies.id,
      text: reviewReplies.text,
      teacherId: reviewReplies.teacherId,
      hiddenAt: reviewReplies.hiddenAt,
      classId: reviews.classId,
      reviewHiddenAt: reviews.hiddenAt,
    })
    .from(reviewReplies)
    .innerJoin(reviews, eq(reviews.id, reviewReplies.reviewId))
    .where(eq(reviewReplies.id, id));
  return row ?? null;
}

/** Hides a reply not hidden yet; answers whether it did. */
export async function hideReply(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(reviewReplies)
    .set({ hiddenAt: now })
    .where(and(eq(reviewReplies.id, id), isNull(reviewReplies.hiddenAt)))
    .returning({ id: reviewReplies.id });
  return rows.length > 0;
}
