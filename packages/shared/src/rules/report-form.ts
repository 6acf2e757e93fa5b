import { z } from 'zod/mini';
import {
  REASON_MAX,
  REPORT_ACTIONS,
  REPORT_DETAILS_MAX,
  REPORT_REASONS,
  REPORT_TARGET_TYPES,
  type ReportTargetType,
} from './constants.ts';
import { multiLine } from './fields.ts';
import { REASON_MESSAGES, REPORT_MESSAGES } from './messages.ts';

/** What a report was about, in the words of its mails and notifications (decision 043). */
export const REPORTED_THING: Record<ReportTargetType, string> = {
  class: 'a class',
  review: 'a review',
  user: 'a member',
  message: 'a message',
  reply: 'a reply to a review',
};

/** The report dialog's fields (decision 043): why, and optionally what happened. */
export const ReportFormBody = z.object({
  reason: z.enum(REPORT_REASONS, { error: REPORT_MESSAGES.reasonRequired }),
  details: z._default(
    z.string().check(z.trim(), z.maxLength(REPORT_DETAILS_MAX, REPORT_MESSAGES.detailsTooLong), multiLine()),
    '',
  ),
});
export type ReportFormBody = z.infer<typeof ReportFormBody>;

/** POST /api/reports: the dialog's fields and what they are about. */
export const CreateReportBody = z.object({
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: z.string().check(z.minLength(1), z.maxLength(64)),
  ...ReportFormBody.shape,
});
export type CreateReportBody = z.infer<typeof CreateReportBody>;

/** POST /api/admin/reports/:id/decision: what the admin does, and a note the reported person reads on a warning or suspension. */
export const DecideReportBody = z.object({
  action: z.enum(REPORT_ACTIONS),
  note: z.optional(z.string().check(z.trim(), z.maxLength(REASON_MAX, REASON_MESSAGES.tooLong), multiLine())),
});
export type DecideReportBody = z.infer<typeof DecideReportBody>;

/** POST /api/admin/users/:id/suspension: a note the suspended person reads. */
export const SuspendUserBody = z.object({
  note: DecideReportBody.shape.note,
});
export type SuspendUserBody = z.infer<typeof SuspendUserBody>;
