import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { withTotal } from '../../db/paging.ts';
import { reviews } from '../../db/schema/reviews.ts';
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
};

export async function listReviews(
  db: Db,
  options: { classId?: string | undefined; limit: number; offset: number },
): Promise<{ rows: ReviewListRow[]; total: number }> {
  const where = options.classId ? eq(reviews.classId, options.classId) : undefined;
  return withTotal(
    db
      .select({
        id: reviews.id,
        rating: reviews.rating,
        details: reviews.details,
        createdAt: reviews.createdAt,
        classId: reviews.classId,
        classTitle: classJoin.title,
        reviewerName: userJoin.name,
        reviewerImage: userJoin.image,
      })
      .from(reviews)
      .innerJoin(classJoin.table, eq(classJoin.id, reviews.classId))
      .innerJoin(userJoin.table, eq(userJoin.id, reviews.studentId))
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(options.limit)
      .offset(options.offset),
    { db, table: reviews, where },
  );
}

/** How many reviews of the class gave each number of stars (reviews_class_created_idx). */
export async function countRatingsOfClass(db: Db, classId: string): Promise<{ rating: number; n: number }[]> {
  return db
    .select({ rating: reviews.rating, n: count() })
    .from(reviews)
    .where(eq(reviews.classId, classId))
    .groupBy(reviews.rating);
}

/** The student's review of the class, locked so a concurrent edit adjusts the rating from the right value. */
export async function findReviewForUpdate(
  db: Db,
  studentId: string,
  classId: string,
): Promise<{ id: string; rating: number } | null> {
  const [row] = await db
    .select({ id: reviews.id, rating: reviews.rating })
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

/** Removes the student's review of the class; answers its rating, or null when there was none. */
export async function deleteReview(db: Db, studentId: string, classId: string): Promise<{ rating: number } | null> {
  const [row] = await db
    .delete(reviews)
    .where(and(eq(reviews.studentId, studentId), eq(reviews.classId, classId)))
    .returning({ rating: reviews.rating });
  return row ?? null;
}

/**
 * Removes every review by a student; returns what each counted for, so the service takes them out
 * of their classes' ratings in the same transaction.
 */
export async function deleteReviewsOf(db: Db, studentId: string): Promise<{ classId: string; rating: number }[]> {
  return db
    .delete(reviews)
    .where(eq(reviews.studentId, studentId))
    .returning({ classId: reviews.classId, rating: reviews.rating });
}
