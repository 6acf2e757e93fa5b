/**
 * Sections of a live class (decision 041): their limits, states and the messages of the editor and
 * of the server's refusals. No Zod: pages read these on first render; the schema is in
 * `section-forms.ts`.
 */

export const SECTION_STATUSES = ['active', 'cancelled'] as const;
export type SectionStatus = (typeof SECTION_STATUSES)[number];

/** Why a section was cancelled (decision 052): by its teacher, or under its minimum at its deadline. */
export const SECTION_CANCEL_REASONS = ['teacher', 'minimum_not_met'] as const;
export type SectionCancelReason = (typeof SECTION_CANCEL_REASONS)[number];

/** A paid student's answer to a rescheduled section (decision 052). */
export const RESCHEDULE_ANSWERS = ['keep', 'refund'] as const;
export type RescheduleAnswer = (typeof RESCHEDULE_ANSWERS)[number];

/** The longest message a teacher may send with a cancellation or a reschedule. */
export const SECTION_NOTICE_MAX = 1000;

/** The most seats one section may have. */
export const SECTION_CAPACITY_MAX = 10_000;
/** How many sections one class may hold (the cap keeps the class page and its editor bounded). */
export const SECTIONS_PER_CLASS_MAX = 50;

export const SECTION_MESSAGES = {
  capacityRequired: 'Maximum seats is required',
  capacityRange: `Maximum seats must be a whole number from 1 to ${SECTION_CAPACITY_MAX}`,
  minimumRange: `Minimum seats must be a whole number from 1 to ${SECTION_CAPACITY_MAX}`,
  minimumAboveMaximum: 'Minimum seats cannot be more than maximum seats',
  opensInvalid: 'Enter the opening as a date and a time',
  closesInvalid: 'Enter the deadline as a date and a time',
  windowOrder: 'Enrollment must open before its deadline',
  timeSkipped: 'That time does not exist in this time zone (the clocks skip it); choose another time',
  closesAfterFirstSession: 'The enrollment deadline must be before the first session starts',
  capacityBelowEnrolled: (enrolled: number) =>
    `Maximum seats cannot be below the ${enrolled} student${enrolled === 1 ? '' : 's'} already enrolled`,
  tooMany: `A class can hold at most ${SECTIONS_PER_CLASS_MAX} sections`,
  cancelled: 'This section was cancelled',
  sessionHeld: 'A session of this section has already started: it can no longer be cancelled or rescheduled',
  noSessions: 'This section has no sessions to reschedule',
  startInPast: 'The new first session must start in the future',
  sameTime: 'The new first session starts when it already does',
  offerClosed: 'The choice to keep the seat or be refunded has closed: the rescheduled section has started',
  offerAnswered: 'You already answered this change of schedule',
  messageTooLong: `A message can be at most ${SECTION_NOTICE_MAX} characters`,
  firstStartsAtInvalid: 'Enter the new first session as a date and a time',
  answerInvalid: 'Answer keep or refund',
  offerNotFound: 'There is no change of schedule to answer for this enrollment',
  notOfClass: 'Choose a section of this class',
  chooseSection: 'Choose a section to enroll in',
  notOpen: 'Enrollment in this section is not open',
  full: 'This section is full',
  /** A seat could not be held when paying (decision 042): every seat is paid or held by another buyer. */
  fullWhilePaying:
    'This section filled up: every seat is taken or held by another buyer. Please choose another section',
} as const;
