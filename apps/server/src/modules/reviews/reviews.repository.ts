import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { schema } from '../../db/client.ts';

const { reviews, classes, users } = schema;

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
  const [rows, totals] = await Promise.all([
    db
      .select({
        id: reviews.id,
        rating: reviews.rating,
        details: reviews.details,
        createdAt: reviews.createdAt,
        classId: reviews.classId,
        classTitle: classes.title,
        reviewerName: users.name,
        reviewerImage: users.image,
      })
      .from(reviews)
      .innerJoin(classes, eq(classes.id, reviews.classId))
      .innerJoin(users, eq(users.id, reviews.studentId))
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(reviews).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function classExists(db: Db, classId: string): Promise<boolean> {
  const [row] = await db.select({ id: classes.id }).from(classes).where(eq(classes.id, classId));
  return Boolean(row);
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

/** Keeps classes.rating_sum / review_count in step, in the review's transaction. */
export async function adjustClassRating(db: Db, classId: string, sumDelta: number, countDelta: 0 | 1): Promise<void> {
  await db
    .update(classes)
    .set({
      ratingSum: sql`${classes.ratingSum} + ${sumDelta}`,
      reviewCount: sql`${classes.reviewCount} + ${countDelta}`,
    })
    .where(eq(classes.id, classId));
}

/** Removes every review by a student and takes them out of their classes' ratings. */
export async function deleteReviewsOf(db: Db, studentId: string): Promise<void> {
  const removed = await db
    .delete(reviews)
    .where(eq(reviews.studentId, studentId))
    .returning({ classId: reviews.classId, rating: reviews.rating });
  for (const { classId, rating } of removed) {
    await db
      .update(classes)
      .set({
        ratingSum: sql`${classes.ratingSum} - ${rating}`,
        reviewCount: sql`greatest(${classes.reviewCount} - 1, 0)`,
      })
      .where(eq(classes.id, classId));
  }
}
