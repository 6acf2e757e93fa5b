import { z } from 'zod';
import { NOTIFICATION_KINDS } from '../rules/notifications.ts';

/*
 * The notification centre (decision 047): short plain-text items about what happened to a person,
 * each linking inside the app, listed newest first and pushed live over Server-Sent Events.
 */

export const NotificationKind = z.enum(NOTIFICATION_KINDS);

/** One item as the bell's panel and the stream show it. `_id` is also the stream's event id. */
export const NotificationItem = z.object({
  _id: z.string(),
  kind: NotificationKind,
  title: z.string(),
  body: z.string(),
  /** A path inside the app (`/dashboard/messages/…`), never another site. */
  link: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NotificationItem = z.infer<typeof NotificationItem>;

/** GET /api/notifications: ?page=&limit= (at most 50 a page), newest first. */
export const NotificationListQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

/** The page of items and how many of all the person's items are unread (the bell's count). */
export const NotificationPage = z.object({
  items: z.array(NotificationItem),
  unread: z.number().int(),
});
export type NotificationPage = z.infer<typeof NotificationPage>;

/** POST /api/notifications/:id/read and POST /api/notifications/read: the unread count after it. */
export const UnreadCount = z.object({ unread: z.number().int() });
export type UnreadCount = z.infer<typeof UnreadCount>;

/** GET /api/notifications/stream: `?after=<id>` resumes after that item (as Last-Event-ID does). */
export const NotificationStreamQuery = z.object({
  after: z
    .string()
    .regex(/^\d{1,18}$/, 'after must be the id of a notification')
    .optional(),
});

/** The `:id` of one notification: its number. */
export const NotificationIdParam = z.object({
  id: z.string().regex(/^\d{1,18}$/, 'id must be the id of a notification'),
});

/** GET/PUT /api/notifications/preferences: which kinds show in the notification centre. */
export const InAppPreferences = z.object({
  message: z.boolean(),
  announcement: z.boolean(),
  moderation: z.boolean(),
  refund: z.boolean(),
  reminder: z.boolean(),
  offer: z.boolean(),
  schedule: z.boolean(),
} satisfies Record<(typeof NOTIFICATION_KINDS)[number], z.ZodBoolean>);
export type InAppPreferences = z.infer<typeof InAppPreferences>;
