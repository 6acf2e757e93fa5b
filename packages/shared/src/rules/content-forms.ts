import { z } from 'zod/mini';
import { requiredText } from './fields.ts';
import { isTimeZone, LOCAL_DATE_TIME } from './time-zones.ts';

/**
 * A class's content (issue 21): the session and material forms of the teacher's editor, the
 * request bodies the server validates with the same schemas, and their messages.
 */

export const SESSION_TITLE_MAX = 120;
export const MATERIAL_TITLE_MAX = 120;
export const LOCATION_MAX = 200;
export const SESSION_DURATION_MAX_MINUTES = 24 * 60;
/** How many sessions and how many materials one class may hold. */
export const CONTENT_ITEMS_MAX = 200;
/** The multipart field a material's file is sent in; its title travels in the field "title". */
export const MATERIAL_FILE_FIELD = 'file';
/** What a material file may be: read from its bytes, never from its name (issue 21 §1). */
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
  notPaid: 'Only students who paid for this class can open its content',
  notOwner: 'Only the teacher of this class can change its content',
} as const;

const HTTPS_URL = /^https:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$/i;

/** An https:// address (a meeting room, a shared document); anything else could run script or leak. */
function httpsUrl(message: string) {
  return z.string().check(z.trim(), z.maxLength(2048, message), z.regex(HTTPS_URL, message));
}

const Title = requiredText(CONTENT_MESSAGES.titleRequired, SESSION_TITLE_MAX, CONTENT_MESSAGES.titleTooLong);

/** A session's fields as the editor sends them: the start is a wall-clock time in `timeZone`. */
export const SessionFormBody = z
  .object({
    title: Title,
    startsAt: z.string({ error: CONTENT_MESSAGES.startRequired }).check(
      z.minLength(1, CONTENT_MESSAGES.startRequired),
      z.refine((v: string) => v.length === 0 || LOCAL_DATE_TIME.test(v), CONTENT_MESSAGES.startInvalid),
    ),
    timeZone: z
      .string({ error: CONTENT_MESSAGES.timeZoneInvalid })
      .check(z.refine((v: string) => isTimeZone(v), CONTENT_MESSAGES.timeZoneInvalid)),
    durationMinutes: z.coerce
      .number({ error: CONTENT_MESSAGES.durationRequired })
      .check(
        z.int(CONTENT_MESSAGES.durationRange),
        z.gte(1, CONTENT_MESSAGES.durationRange),
        z.lte(SESSION_DURATION_MAX_MINUTES, CONTENT_MESSAGES.durationRange),
      ),
    meetingUrl: z._default(
      z.union([z.literal(''), httpsUrl(CONTENT_MESSAGES.meetingUrlInvalid)], {
        error: CONTENT_MESSAGES.meetingUrlInvalid,
      }),
      '',
    ),
    location: z._default(z.string().check(z.trim(), z.maxLength(LOCATION_MAX, CONTENT_MESSAGES.locationTooLong)), ''),
  })
  .check(
    z.refine((body) => body.meetingUrl.length > 0 || body.location.length > 0, {
      message: CONTENT_MESSAGES.placeRequired,
      path: ['meetingUrl'],
    }),
  );
export type SessionFormBody = z.infer<typeof SessionFormBody>;

/** POST /api/classes/:id/sessions and PATCH /api/class-sessions/:id: the whole form each time. */
export const SaveSessionBody = SessionFormBody;
export type SaveSessionBody = z.infer<typeof SaveSessionBody>;

/** A material that is a link (a shared document, a video). Files are sent as multipart instead. */
export const LinkMaterialFormBody = z.object({
  title: requiredText(CONTENT_MESSAGES.titleRequired, MATERIAL_TITLE_MAX, CONTENT_MESSAGES.titleTooLong),
  url: httpsUrl(CONTENT_MESSAGES.linkUrlInvalid),
});
export type LinkMaterialFormBody = z.infer<typeof LinkMaterialFormBody>;

/** PATCH /api/materials/:id: the title always; the address only for a link. */
export const UpdateMaterialBody = z.object({
  title: requiredText(CONTENT_MESSAGES.titleRequired, MATERIAL_TITLE_MAX, CONTENT_MESSAGES.titleTooLong),
  url: z.optional(httpsUrl(CONTENT_MESSAGES.linkUrlInvalid)),
});
export type UpdateMaterialBody = z.infer<typeof UpdateMaterialBody>;

/** The title field of the upload form (the file is checked on the server from its bytes). */
export const MaterialFileFormBody = z.object({
  title: requiredText(CONTENT_MESSAGES.titleRequired, MATERIAL_TITLE_MAX, CONTENT_MESSAGES.titleTooLong),
});
export type MaterialFileFormBody = z.infer<typeof MaterialFileFormBody>;

/** PUT …/order: every id of the class's sessions (or materials) in the new order. */
export const ReorderBody = z.object({
  ids: z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(CONTENT_ITEMS_MAX)),
});
export type ReorderBody = z.infer<typeof ReorderBody>;

/** POST …/publish: true publishes a draft, false takes it back to draft. */
export const PublishBody = z.object({ published: z.boolean() });
export type PublishBody = z.infer<typeof PublishBody>;

/** PUT /api/class-sessions/:id/attendance and /api/materials/:id/completion: the student's own mark. */
export const ProgressMarkBody = z.object({ done: z.boolean() });
export type ProgressMarkBody = z.infer<typeof ProgressMarkBody>;
