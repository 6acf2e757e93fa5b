import { z } from 'zod/mini';
import { REVIEW_DETAILS_MAX, REVIEW_REPLY_MAX } from './constants.ts';
import { multiLine, requiredMultilineText } from './fields.ts';
import { REVIEW_MESSAGES } from './messages.ts';

/** A paid class's review form: a 1–5 rating and optional details. */
export const ReviewFormBody = z.object({
  rating: z.pipe(
    // A radio group with nothing chosen reads as null, which Number() would turn into 0.
    z.pipe(
      z.transform((value: unknown) => (value === null ? undefined : value)),
      z.coerce.number({ error: REVIEW_MESSAGES.ratingRequired }),
    ),
    z
      .int({ error: REVIEW_MESSAGES.ratingWhole })
      .check(z.gte(1, REVIEW_MESSAGES.ratingRange), z.lte(5, REVIEW_MESSAGES.ratingRange)),
  ),
  details: z._default(
    z.string().check(z.trim(), z.maxLength(REVIEW_DETAILS_MAX, REVIEW_MESSAGES.detailsTooLong), multiLine()),
    '',
  ),
});
export type ReviewFormBody = z.infer<typeof ReviewFormBody>;

/** POST /api/reviews: the review form's fields for one class. */
export const CreateReviewBody = z.object({
  classId: z.string().check(z.minLength(1), z.maxLength(64)),
  ...ReviewFormBody.shape,
});
export type CreateReviewBody = z.infer<typeof CreateReviewBody>;

/**
 * A teacher's reply to a review of their class (decision 046): trimmed text of 1 to
 * REVIEW_REPLY_MAX characters, line breaks allowed, stored and shown as text.
 */
export const ReviewReplyBody = z.object({
  text: requiredMultilineText(REVIEW_MESSAGES.replyRequired, REVIEW_REPLY_MAX, REVIEW_MESSAGES.replyTooLong),
});
export type ReviewReplyBody = z.infer<typeof ReviewReplyBody>;
