import { z } from 'zod';
import { PAGE_SIZE_MAX, REVIEW_DETAILS_MAX } from './constants.ts';
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

export const REVIEW_PAGE_SIZE_DEFAULT = 20;

/** GET /api/reviews: newest first, 20 a page unless ?limit= says otherwise; ?classId= narrows to one class. */
export const ReviewListQuery = PageQuery.extend({
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(REVIEW_PAGE_SIZE_DEFAULT),
  classId: z.string().min(1).max(64).optional(),
});
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;

export const CreateReviewBody = z.object({
  classId: z.string().min(1).max(64),
  rating: z.coerce
    .number({ error: 'Rating is required' })
    .int('Rating must be a whole number')
    .min(1, 'Rating must be 1 to 5')
    .max(5, 'Rating must be 1 to 5'),
  details: z
    .string()
    .trim()
    .max(REVIEW_DETAILS_MAX, `Review must be at most ${REVIEW_DETAILS_MAX} characters`)
    .default(''),
});
export type CreateReviewBody = z.infer<typeof CreateReviewBody>;

/**
 * POST /api/reviews answer: `insertedId` is the review's id both when it is created (201,
 * `created: true`) and when the caller's earlier review of that class is edited (200, `created: false`).
 */
export const CreateReviewResponse = z.object({ insertedId: z.string(), created: z.boolean() });
export type CreateReviewResponse = z.infer<typeof CreateReviewResponse>;

export const REVIEW_MESSAGES = {
  notPaid: 'Only students who paid for this class can review it',
  classNotFound: 'Class not found',
} as const;
