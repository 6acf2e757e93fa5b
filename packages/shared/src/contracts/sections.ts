import { z } from 'zod';
import { RESCHEDULE_ANSWERS, SECTION_STATUSES } from '../rules/sections.ts';

/** Sections of a live class (decision 041). Request bodies are `rules/section-forms.ts`; these are the answers. */

export const SectionStatus = z.enum(SECTION_STATUSES);

/** A section as its teacher edits it. */
export const TeacherSection = z.object({
  _id: z.string(),
  classId: z.string(),
  timeZone: z.string(),
  /** Maximum seats; null only for a section made from a class that sold seats before sections existed. */
  capacity: z.number().int().nullable(),
  minimum: z.number().int().nullable(),
  /** The enrolment window as instants (ISO 8601) and as wall-clock times in the section's zone ('' for none). */
  enrollOpensAt: z.string().nullable(),
  enrollClosesAt: z.string().nullable(),
  localEnrollOpensAt: z.string(),
  localEnrollClosesAt: z.string(),
  status: SectionStatus,
  /**
   * When and why it was cancelled (decision 052): `teacher` or `minimum_not_met` (one of
   * SECTION_CANCEL_REASONS; a plain string because the document's nullable enum would refuse null).
   */
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  /** Students whose enrolment in this section is paid. */
  enrolled: z.number().int(),
  sessionCount: z.number().int(),
  /** The first session's start (ISO 8601), null while it has none. */
  firstSessionAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TeacherSection = z.infer<typeof TeacherSection>;

/** A session of a section as anyone sees it before buying (decision 042): no meeting link, no materials. */
export const ScheduleSession = z.object({
  title: z.string(),
  /** ISO 8601 instant; pages show it in the viewer's own time zone, named. */
  startsAt: z.string(),
  durationMinutes: z.number().int(),
});

/** An upcoming section of an accepted class on its public page (decision 042). */
export const PublicSection = z.object({
  _id: z.string(),
  /** The section's own zone (the teacher's); pages show times in the viewer's zone. */
  timeZone: z.string(),
  /** Maximum seats; null for no limit. */
  capacity: z.number().int().nullable(),
  /** Seats neither paid nor held now; null for no limit. */
  seatsLeft: z.number().int().nullable(),
  full: z.boolean(),
  enrollOpensAt: z.string().nullable(),
  /** The enrollment deadline (ISO 8601), null for none. */
  enrollClosesAt: z.string().nullable(),
  /** Whether a seat can be bought now: the window is open and a seat is left. */
  open: z.boolean(),
  sessions: z.array(ScheduleSession),
});
export type PublicSection = z.infer<typeof PublicSection>;

/** The answer to a teacher's cancellation (decision 052). */
export const SectionCancelled = z.object({
  success: z.literal(true),
  /** Paid students refunded in full (their refunds finish at the gateway after the answer). */
  refunded: z.number().int(),
});
export type SectionCancelled = z.infer<typeof SectionCancelled>;

/** The answer to a reschedule (decision 052). */
export const SectionRescheduled = z.object({
  /** Sessions moved. */
  modifiedCount: z.number().int(),
  /** The first session's new start (ISO 8601). */
  firstSessionAt: z.string(),
  /** Paid students offered a refund until then. */
  offered: z.number().int(),
});
export type SectionRescheduled = z.infer<typeof SectionRescheduled>;

/** A paid student's open choice after their section moved (decision 052). */
export const RescheduleOffer = z.object({
  enrollmentId: z.string(),
  classId: z.string(),
  title: z.string(),
  /** Until when "refund me" is offered (ISO 8601): the new first session. */
  openUntil: z.string(),
  /** What a refund gives back, in cents. */
  amountCents: z.number().int(),
  sessions: z.array(ScheduleSession),
});
export type RescheduleOffer = z.infer<typeof RescheduleOffer>;

export const RescheduleAnswered = z.object({
  answer: z.enum(RESCHEDULE_ANSWERS),
  /** For `refund`: cents refunded, and whether the refund is still finishing at the gateway. */
  refundedCents: z.number().int(),
  pending: z.boolean(),
});
export type RescheduleAnswered = z.infer<typeof RescheduleAnswered>;
