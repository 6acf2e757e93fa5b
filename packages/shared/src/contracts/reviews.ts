import { z } from 'zod';
import { PAGE_SIZE_MAX, REVIEW_PAGE_SIZE_DEFAULT } from '../rules/constants.ts';
import { PageQuery } from './common.ts';

/** A teacher's reply to a review (decision 046), shown under it as the teacher's. */
export const ReviewReply = z.object({
  /** What a report of the reply names (decision 046). */
  _id: z.string(),
  text: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReviewReply = z.infer<typeof ReviewReply>;

export const Review = z.object({
  _id: z.string(),
  rating: z.number().int().min(1).max(5),
  /** The reviewer's photo (spec §3 "image"). */
  image: z.string().nullable(),
  details: z.string(),
  /** The reviewer's name. */
  name: z.string(),
  classId: z.string(),
  classTitle: z.string(),
  createdAt: z.string(),
  /** The class teacher's reply, or null (decision 046). */
  reply: ReviewReply.nullable(),
});
export type Review = z.infer<typeof Review>;

/** GET /api/reviews: newest first, 20 a page unless ?limit= says otherwise; ?classId= narrows to one class. */
export const ReviewListQuery = PageQuery.extend({
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(REVIEW_PAGE_SIZE_DEFAULT),
  classId: z.string().min(1).max(64).optional(),
});
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;

/**
 * POST /api/reviews (body: CreateReviewBody of `rules/review-form.ts`) answer: `insertedId` is the review's id both when it is created (201,
 * `created: true`) and when the caller's earlier review of that class is edited (200, `created: false`).
 */
export const CreateReviewResponse = z.object({ insertedId: z.string(), created: z.boolean() });
export type CreateReviewResponse = z.infer<typeof CreateReviewResponse>;

/**
 * GET /api/reviews/mine: the caller's own reviews, hidden ones included (their author sees them,
 * with `hidden` set, decision 043), so the review form opens filled in and an enrolled card shows it.
 */
export const MyReview = z.object({
  _id: z.string(),
  classId: z.string(),
  rating: z.number().int().min(1).max(5),
  details: z.string(),
  /** Off the public lists by moderation (decision 043): counted in no rating. */
  hidden: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MyReview = z.infer<typeof MyReview>;

/** GET /api/reviews/mine: newest first; ?classId= for the caller's review of one class. */
export const MyReviewListQuery = PageQuery.extend({
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_MAX),
  classId: z.string().min(1).max(64).optional(),
});
export type MyReviewListQuery = z.infer<typeof MyReviewListQuery>;

/** POST and PATCH /api/reviews/:id/reply answer (decision 046): the reply as stored. */
export const SavedReviewReply = z.object({
  _id: z.string(),
  reviewId: z.string(),
  text: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedReviewReply = z.infer<typeof SavedReviewReply>;
