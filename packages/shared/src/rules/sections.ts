/**
 * Sections of a live class (decision 041): their limits, states and the messages of the editor and
 * of the server's refusals. No Zod: pages read these on first render; the schema is in
 * `section-forms.ts`.
 */

export const SECTION_STATUSES = ['active', 'cancelled'] as const;
export type SectionStatus = (typeof SECTION_STATUSES)[number];

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
  notOfClass: 'Choose a section of this class',
  chooseSection: 'Choose a section to enroll in',
  notOpen: 'Enrollment in this section is not open',
  full: 'This section is full',
  /** A seat could not be held when paying (decision 042): every seat is paid or held by another buyer. */
  fullWhilePaying:
    'This section filled up: every seat is taken or held by another buyer. Please choose another section',
} as const;
