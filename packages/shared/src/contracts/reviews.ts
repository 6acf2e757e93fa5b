import { z } from 'zod';
import { PAGE_SIZE_MAX, REVIEW_PAGE_SIZE_DEFAULT } from '../rules/constants.ts';
import { PageQuery } from './common.ts';

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
