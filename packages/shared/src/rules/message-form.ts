import { z } from 'zod/mini';
import { MESSAGE_BODY_MAX } from './constants.ts';
import { requiredMultilineText } from './fields.ts';
import { ANNOUNCEMENT_MESSAGES, MESSAGE_MESSAGES } from './messages.ts';

/**
 * A message's one field (decision 045): trimmed text of 1 to MESSAGE_BODY_MAX characters, line
 * breaks allowed. It is stored and shown as text: markup in it is never rendered.
 */
export const MessageFormBody = z.object({
  body: requiredMultilineText(MESSAGE_MESSAGES.bodyRequired, MESSAGE_BODY_MAX, MESSAGE_MESSAGES.bodyTooLong),
});
export type MessageFormBody = z.infer<typeof MessageFormBody>;

/**
 * A teacher's announcement to a class's paid students: text like a message, to the whole class or
 * to one of its sections (`sectionId`).
 */
export const AnnouncementFormBody = z.object({
  body: requiredMultilineText(ANNOUNCEMENT_MESSAGES.bodyRequired, MESSAGE_BODY_MAX, ANNOUNCEMENT_MESSAGES.bodyTooLong),
  sectionId: z.optional(z.string({ error: ANNOUNCEMENT_MESSAGES.section })),
});
export type AnnouncementFormBody = z.infer<typeof AnnouncementFormBody>;
