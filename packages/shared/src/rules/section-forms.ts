import { z } from 'zod/mini';
import { RESCHEDULE_ANSWERS, SECTION_CAPACITY_MAX, SECTION_MESSAGES, SECTION_NOTICE_MAX } from './sections.ts';
import { CONTENT_MESSAGES } from './content.ts';
import { isTimeZone, LOCAL_DATE_TIME } from './time-zones.ts';

/**
 * A section's form in the teacher's editor and the body of POST /api/classes/:id/sections and
 * PATCH /api/sections/:id (decision 041). The enrolment window is given as wall-clock times
 * (`YYYY-MM-DDTHH:mm`) in the section's zone, or '' for none; the minimum is '' for none.
 */

function seats(message: string) {
  return z.coerce
    .number({ error: message })
    .check(z.int(message), z.gte(1, message), z.lte(SECTION_CAPACITY_MAX, message));
}

function localTime(message: string) {
  return z._default(
    z.string({ error: message }).check(z.refine((v: string) => v.length === 0 || LOCAL_DATE_TIME.test(v), message)),
    '',
  );
}

export const SectionFormBody = z
  .object({
    timeZone: z
      .string({ error: CONTENT_MESSAGES.timeZoneInvalid })
      .check(z.refine((v: string) => isTimeZone(v), CONTENT_MESSAGES.timeZoneInvalid)),
    capacity: seats(SECTION_MESSAGES.capacityRange),
    minimum: z._default(
      z.union([z.literal(''), seats(SECTION_MESSAGES.minimumRange)], {
        error: SECTION_MESSAGES.minimumRange,
      }),
      '',
    ),
    enrollOpensAt: localTime(SECTION_MESSAGES.opensInvalid),
    enrollClosesAt: localTime(SECTION_MESSAGES.closesInvalid),
  })
  .check(
    z.refine((body) => typeof body.minimum !== 'number' || body.minimum <= body.capacity, {
      message: SECTION_MESSAGES.minimumAboveMaximum,
      path: ['minimum'],
    }),
    // Same zone, same format: the strings order as the times do.
    z.refine((body) => !body.enrollOpensAt || !body.enrollClosesAt || body.enrollOpensAt < body.enrollClosesAt, {
      message: SECTION_MESSAGES.windowOrder,
      path: ['enrollClosesAt'],
    }),
  );
export type SectionFormBody = z.infer<typeof SectionFormBody>;
/** What the form holds before validation (numbers typed as text). */
export type SectionFormInput = z.input<typeof SectionFormBody>;

/** The teacher's optional words to the students of a cancelled or rescheduled section (decision 052). */
const noticeMessage = z._default(
  z
    .string({ error: SECTION_MESSAGES.messageTooLong })
    .check(z.maxLength(SECTION_NOTICE_MAX, SECTION_MESSAGES.messageTooLong)),
  '',
);

/** POST /api/sections/:id/cancel (decision 052). */
export const CancelSectionBody = z.object({ message: noticeMessage });
export type CancelSectionBody = z.infer<typeof CancelSectionBody>;

/**
 * POST /api/sections/:id/reschedule (decision 052): the first session's new start as a wall-clock
 * time (`YYYY-MM-DDTHH:mm`) in the section's zone; every session of the section moves by as much.
 */
export const RescheduleSectionBody = z.object({
  firstStartsAt: z
    .string({ error: SECTION_MESSAGES.firstStartsAtInvalid })
    .check(z.refine((v: string) => LOCAL_DATE_TIME.test(v), SECTION_MESSAGES.firstStartsAtInvalid)),
  message: noticeMessage,
});
export type RescheduleSectionBody = z.infer<typeof RescheduleSectionBody>;

/** POST /api/reschedule-offers/:id: keep the seat, or be refunded in full (decision 052). */
export const RescheduleAnswerBody = z.object({
  answer: z.enum(RESCHEDULE_ANSWERS, { error: SECTION_MESSAGES.answerInvalid }),
});
export type RescheduleAnswerBody = z.infer<typeof RescheduleAnswerBody>;
