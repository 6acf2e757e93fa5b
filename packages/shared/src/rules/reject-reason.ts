import { z } from 'zod/mini';
import { REASON_MAX } from './constants.ts';
import { multiLine } from './fields.ts';
import { REASON_MESSAGES } from './messages.ts';

/**
 * The optional reason an admin gives when rejecting an application, a class or a class's changes;
 * the applicant or teacher reads it. The reject dialogs' form and the three reject calls' body.
 */
export const RejectReasonBody = z.object({
  reason: z.optional(z.string().check(z.trim(), z.maxLength(REASON_MAX, REASON_MESSAGES.tooLong), multiLine())),
});
export type RejectReasonBody = z.infer<typeof RejectReasonBody>;
