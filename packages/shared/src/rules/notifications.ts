/**
 * What a notification can be about (decision 047). `offer` is for a seat offered from a waitlist
 * (decision 051); `announcement` is for a message from the platform to its people; `schedule` for a
 * section cancelled or rescheduled (decision 052).
 */
export const NOTIFICATION_KINDS = [
  'message',
  'announcement',
  'moderation',
  'refund',
  'reminder',
  'offer',
  'schedule',
] as const;
export type NotificationKindName = (typeof NOTIFICATION_KINDS)[number];

/** How each kind is named in the profile's settings. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKindName, string> = {
  message: 'Messages from students and teachers',
  announcement: 'Announcements from SkillHive',
  moderation: 'Decisions about my classes and my application to teach',
  refund: 'Refunds',
  reminder: 'Reminders of sessions about to start',
  offer: 'Seats offered from a waiting list',
  schedule: 'Cancelled or rescheduled sections of my classes',
};

/** A notification's title and text are one short line each: longer ones are cut with an ellipsis. */
export const NOTIFICATION_TITLE_MAX = 120;
export const NOTIFICATION_BODY_MAX = 280;
