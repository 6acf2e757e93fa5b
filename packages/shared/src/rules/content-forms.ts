import { z } from 'zod/mini';
import { requiredText, singleLine } from './fields.ts';
import { isTimeZone, LOCAL_DATE_TIME } from './time-zones.ts';
import {
  SESSION_TITLE_MAX,
  MATERIAL_TITLE_MAX,
  LOCATION_MAX,
  SESSION_DURATION_MAX_MINUTES,
  CONTENT_ITEMS_MAX,
  WEEKLY_SESSIONS_MAX,
  CONTENT_MESSAGES,
} from './content.ts';

/**
 * A class's content (decision 021): the session and material forms of the teacher's editor and the
 * request bodies the server validates with the same schemas (their limits and messages: `content.ts`).
 */

const HTTPS_URL = /^https:\/\/[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$/i;

/** An https:// address (a meeting room, a shared document); anything else could run script or leak. */
function httpsUrl(message: string) {
  return z.string().check(z.trim(), z.maxLength(2048, message), singleLine(), z.regex(HTTPS_URL, message));
}

const Title = requiredText(CONTENT_MESSAGES.titleRequired, SESSION_TITLE_MAX, CONTENT_MESSAGES.titleTooLong);

/** A session's fields as the editor sends them: the start is a wall-clock time in `timeZone`. */
const SESSION_FIELDS = {
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
  location: z._default(
    z.string().check(z.trim(), z.maxLength(LOCATION_MAX, CONTENT_MESSAGES.locationTooLong), singleLine()),
    '',
  ),
  /**
   * The section the session belongs to (decision 041); '' or absent: on creation the class's
   * oldest running section (its first session makes one), on an edit the one it is in.
   */
  sectionId: z._default(z.string().check(z.maxLength(64)), ''),
};

/** A session happens somewhere: a meeting link or a location. */
function placeRequired() {
  return z.refine<{ meetingUrl: string; location: string }>(
    (body) => body.meetingUrl.length > 0 || body.location.length > 0,
    {
      message: CONTENT_MESSAGES.placeRequired,
      path: ['meetingUrl'],
    },
  );
}

export const SessionFormBody = z.object(SESSION_FIELDS).check(placeRequired());
export type SessionFormBody = z.infer<typeof SessionFormBody>;

/**
 * POST /api/classes/:id/sessions/weekly and the editor's add form: the session, then the same
 * local time in its zone every week after, `weeks` sessions in all (1 is the session alone).
 */
export const WeeklySessionsBody = z
  .object({
    ...SESSION_FIELDS,
    weeks: z._default(
      z.coerce
        .number({ error: CONTENT_MESSAGES.weeksRange })
        .check(
          z.int(CONTENT_MESSAGES.weeksRange),
          z.gte(1, CONTENT_MESSAGES.weeksRange),
          z.lte(WEEKLY_SESSIONS_MAX, CONTENT_MESSAGES.weeksRange),
        ),
      1,
    ),
  })
  .check(placeRequired());
export type WeeklySessionsBody = z.infer<typeof WeeklySessionsBody>;
export type WeeklySessionsInput = z.input<typeof WeeklySessionsBody>;

/**
 * POST /api/classes/:id/content/publish: every draft at once. With a section, that section's draft
 * sessions; without, every draft session and material of the class.
 */
export const PublishDraftsBody = z.object({
  sectionId: z._default(z.string().check(z.maxLength(64)), ''),
});
export type PublishDraftsBody = z.infer<typeof PublishDraftsBody>;

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
