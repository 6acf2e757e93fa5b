import type { CreateReviewResponse, MyReview, Review, SavedReviewReply } from '@skillhive/shared/contracts/reviews';
import { REVIEW_MESSAGES } from '@skillhive/shared/rules/messages';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import { adjustClassCounters, classExists } from '../classes/classes.public.ts';
import * as content from '../content/content.service.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import * as repo from './reviews.repository.ts';

function toReview(row: repo.ReviewListRow): Review {
  return {
    _id: row.id,
    rating: row.rating,
    image: row.reviewerImage,
    details: row.details,
    name: row.reviewerName,
    classId: row.classId,
    classTitle: row.classTitle,
    createdAt: row.createdAt.toISOString(),
    reply:
      row.replyId !== null && row.replyText !== null && row.replyCreatedAt && row.replyUpdatedAt
        ? {
            _id: row.replyId,
            text: row.replyText,
            createdAt: row.replyCreatedAt.toISOString(),
            updatedAt: row.replyUpdatedAt.toISOString(),
          }
        : null,
  };
}

/** GET /api/reviews (spec §2 home "reviews section"): newest first. An id that is no uuid matches nothing. */
export async function listReviews(
  db: Db,
  query: { page: number; limit: number; classId?: string | undefined },
): Promise<{ items: Review[]; total: number }> {
  if (query.classId && !enrollments.isUuid(query.classId)) return { items: [], total: 0 };
  const { rows, total } = await repo.listReviews(db, {
    classId: query.classId,
    ...limitOffsetOf(query),
  });
  return { items: rows.map(toReview), total };
}

/** GET /api/reviews/mine: the caller's reviews; a class id that is no uuid names no review. */
export async function listMyReviews(
  db: Db,
  viewer: Viewer,
  query: { page: number; limit: number; classId?: string | undefined },
): Promise<{ items: MyReview[]; total: number }> {
  if (query.classId && !enrollments.isUuid(query.classId)) return { items: [], total: 0 };
  const { rows, total } = await repo.listReviewsOfStudent(db, {
    studentId: viewer.id,
    classId: query.classId,
    ...limitOffsetOf(query),
  });
  const items = rows.map((row) => ({
    _id: row.id,
    classId: row.classId,
    rating: row.rating,
    details: row.details,
    hidden: row.hiddenAt !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
  return { items, total };
}

/** Reviews of a class per number of stars: index 0 counts the one-star reviews, index 4 the five-star ones. */
export async function ratingBreakdownOf(db: Db, classId: string): Promise<number[]> {
  const breakdown = [0, 0, 0, 0, 0];
  for (const { rating, n } of await repo.countRatingsOfClass(db, classId)) breakdown[rating - 1] = n;
  return breakdown;
}

/**
 * POST /api/reviews: a student who paid for the class reviews it; one review per student and
 * class, so a second post edits the first. The class's rating sum and count change in the same
 * transaction (an edit adjusts the sum by the difference), so the average on class cards is
 * always the average of the stored reviews.
 */
export async function saveReview(
  db: Db,
  viewer: Viewer,
  input: { classId: string; rating: number; details: string },
  now: () => Date,
): Promise<CreateReviewResponse> {
  if (!enrollments.isUuid(input.classId)) throw notFound('Class');
  if (!(await classExists(db, input.classId))) throw notFound('Class');
  if (!(await enrollments.hasPaidFor(db, viewer.id, input.classId))) throw conflict(REVIEW_MESSAGES.notPaid);
  // Verified reviews (decision 021): with published content, paying is not enough.
  if (!(await content.hasVerifiedProgress(db, viewer.id, input.classId))) {
    throw conflict(REVIEW_MESSAGES.notVerified);
  }

  return db.transaction(async (tx) => {
    // The paid line is held until the review is stored: a refund of it (which removes the review,
    // `removeReviewOfRefundedClass`) runs wholly before this — then this is refused — or after.
    if (!(await enrollments.holdPaidEnrollment(tx, viewer.id, input.classId))) throw conflict(REVIEW_MESSAGES.notPaid);
    // Two rounds at most: if a concurrent first post wins the insert, this one edits it.
    for (let attempt = 0; attempt < 2; attempt++) {
      const existing = await repo.findReviewForUpdate(tx, viewer.id, input.classId);
      if (existing) {
        await repo.updateReview(tx, existing.id, { rating: input.rating, details: input.details, updatedAt: now() });
        // A hidden review counts in no rating (decision 043), and an edit does not bring it back.
        if (!existing.isHidden) {
          await adjustClassCounters(tx, input.classId, { ratingSum: input.rating - existing.rating, reviews: 0 });
        }
        return { insertedId: existing.id, created: false };
      }
      const id = await repo.insertReview(tx, {
        classId: input.classId,
        studentId: viewer.id,
        rating: input.rating,
        details: input.details,
      });
      if (id) {
        await adjustClassCounters(tx, input.classId, { ratingSum: input.rating, reviews: 1 });
        return { insertedId: id, created: true };
      }
    }
    throw conflict('Please try again');
  });
}

/**
 * A refund of the student's paid enrollment in a class takes their review of it with it, in the
 * refund's transaction: the review was "verified" by that payment, and a refundable payment must
 * not buy a lasting review. Its rating leaves the class's counters (decision 003). Call it after
 * the line is marked refunded; a student still holding a paid line of the class keeps the review.
 */
export async function removeReviewOfRefundedClass(tx: Db, studentId: string, classId: string): Promise<void> {
  if (await enrollments.hasPaidFor(tx, studentId, classId)) return;
  const removed = await repo.deleteReview(tx, studentId, classId);
  if (removed && !removed.isHidden) await adjustClassCounters(tx, classId, { ratingSum: -removed.rating, reviews: -1 });
}

/** Before an account is deleted: its reviews go, and the ratings they were counted in follow. */
export async function deleteReviewsOf(db: Db, studentId: string): Promise<void> {
  const removed = await repo.deleteReviewsOf(db, studentId);
  for (const { classId, rating, isHidden } of removed) {
    if (!isHidden) await adjustClassCounters(db, classId, { ratingSum: -rating, reviews: -1 });
  }
}

/** A review as a report names it (decision 043); null for an unknown id. */
export async function findReviewSummary(db: Db, reviewId: string) {
  if (!enrollments.isUuid(reviewId)) return null;
  return repo.findReviewSummary(db, reviewId);
}

/** A teacher's reply as a report names it (decision 046); null for an unknown id. */
export async function findReplySummary(db: Db, replyId: string) {
  if (!enrollments.isUuid(replyId)) return null;
  return repo.findReplySummary(db, replyId);
}

/** Hides one reply after a report (decision 046), in the moderation decision's transaction. */
export async function hideReply(tx: Db, replyId: string, now: Date): Promise<boolean> {
  return repo.hideReply(tx, replyId, now);
}

/**
 * Takes reviews off the public lists and out of their classes' ratings (decision 043), in the
 * moderation decision's transaction: one review an admin hid, or every review of a suspended
 * author. A review already hidden is left as it is.
 */
export async function hideReviews(
  tx: Db,
  which: { reviewId: string } | { studentId: string },
  reason: 'content' | 'suspension',
  now: Date,
): Promise<number> {
  const hidden = await repo.hideReviews(tx, which, reason, now);
  for (const { classId, rating } of hidden) await adjustClassCounters(tx, classId, { ratingSum: -rating, reviews: -1 });
  return hidden.length;
}

/** A lifted suspension brings back the reviews it hid, and their ratings (decision 043). */
export async function restoreSuspendedReviews(tx: Db, studentId: string): Promise<number> {
  const shown = await repo.restoreSuspendedReviews(tx, studentId);
  for (const { classId, rating } of shown) await adjustClassCounters(tx, classId, { ratingSum: rating, reviews: 1 });
  return shown.length;
}

/**
 * POST /api/reviews/:id/reply and PATCH (decision 046): the teacher of the review's class answers
 * it once (`create`; a second create is 409) and edits that answer afterwards (`edit`; 404 before
 * there is one). Anyone else, another teacher included, finds no such review (404).
 */
export async function saveReply(
  db: Db,
  viewer: Viewer,
  reviewId: string,
  input: { text: string },
  mode: 'create' | 'edit',
  now: () => Date,
): Promise<SavedReviewReply> {
  if (!enrollments.isUuid(reviewId)) throw notFound('Review');
  const review = await repo.findReviewOfTeacher(db, reviewId, viewer.id);
  if (!review) throw notFound('Review');
  // A reply an admin hid after a report stays hidden: neither edited back nor replaced.
  if (review.replyHiddenAt) throw conflict(REVIEW_MESSAGES.replyHidden);
  const saved =
    mode === 'create'
      ? await repo.insertReply(db, { reviewId, teacherId: viewer.id, text: input.text })
      : await repo.updateReply(db, reviewId, { text: input.text, updatedAt: now() });
  if (!saved) throw mode === 'create' ? conflict(REVIEW_MESSAGES.replyExists) : notFound('Reply');
  return {
    _id: saved.id,
    reviewId,
    text: input.text,
    createdAt: saved.createdAt.toISOString(),
    updatedAt: saved.updatedAt.toISOString(),
  };
}
