/**
 * A class's content (decision 021): its limits, the file types a material may be, and the messages of
 * the editor and of the server's refusals. No Zod: the pages read these on first render; the
 * schemas are in `content-forms.ts`.
 */

export const SESSION_TITLE_MAX = 120;
export const MATERIAL_TITLE_MAX = 120;
export const LOCATION_MAX = 200;
export const SESSION_DURATION_MAX_MINUTES = 24 * 60;
/** How many sessions and how many materials one class may hold. */
export const CONTENT_ITEMS_MAX = 200;
/** "Repeat weekly": at most a year of weekly sessions in one step. */
export const WEEKLY_SESSIONS_MAX = 52;
/** The multipart field a material's file is sent in; its title travels in the field "title". */
export const MATERIAL_FILE_FIELD = 'file';
/** What a material file may be: read from its bytes, never from its name (decision 021). */
export const ACCEPTED_MATERIAL_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
] as const;
export type AcceptedMaterialType = (typeof ACCEPTED_MATERIAL_TYPES)[number];

export const CONTENT_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: `Title must be at most ${SESSION_TITLE_MAX} characters`,
  startRequired: 'Start date and time are required',
  startInvalid: 'Enter the start as a date and a time',
  startSkipped: 'That time does not exist in this time zone (the clocks skip it); choose another time',
  timeZoneInvalid: 'Choose a time zone from the list',
  durationRequired: 'Duration is required',
  weeksRange: `Repeat weekly 1 to ${WEEKLY_SESSIONS_MAX} times`,
  /** A week of a repeated session whose local time the clocks skip (a daylight-saving change). */
  weekSkipped: (date: string) =>
    `${date}: that time does not exist in this time zone (the clocks skip it); choose another time`,
  durationRange: `Duration must be 1 to ${SESSION_DURATION_MAX_MINUTES} minutes`,
  meetingUrlInvalid: 'The meeting link must be an https:// address',
  placeRequired: 'Give a meeting link or a location',
  locationTooLong: `Location must be at most ${LOCATION_MAX} characters`,
  linkUrlInvalid: 'The link must be an https:// address',
  fileRequired: 'Choose a PDF or an image to upload',
  fileUnsupported: 'Only PDF files and PNG, JPEG, WebP or GIF images can be uploaded',
  fileExecutable: 'This file is a program, not a document. Only PDF files and images can be uploaded',
  fileTooLarge: (mb: number) => `The file is larger than ${mb} MB`,
  orderMismatch: 'The new order must list every item of the class exactly once',
  tooMany: `A class can hold at most ${CONTENT_ITEMS_MAX} sessions and ${CONTENT_ITEMS_MAX} materials`,
  notStarted: 'You can mark a session attended once it has started',
  otherSection: 'This session is in another section than yours',
  studentOtherSection: "This session is in another section than the student's",
  studentNotPaid: 'This student has not paid for this class',
  notPaid: 'Only students who paid for this class can open its content',
  /** The same refusal to a student whose payment was refunded: a refund takes access away at once. */
  refunded: 'Your payment for this class was refunded. Enroll again to open its content.',
  notOwner: 'Only the teacher of this class can change its content',
} as const;
