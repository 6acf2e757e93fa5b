import { z } from 'zod';
import { WAITLIST_STATUSES } from '../rules/waitlists.ts';

/** Waitlists of full sections (decision 051). */

export const WaitlistStatus = z.enum(WAITLIST_STATUSES);

/** One of the caller's own entries (GET /api/waitlist). */
export const MyWaitlistEntry = z.object({
  _id: z.string(),
  sectionId: z.string(),
  classId: z.string(),
  classTitle: z.string(),
  status: WaitlistStatus,
  /** 1 for the next person to be offered a seat; null unless waiting. */
  position: z.number().int().nullable(),
  joinedAt: z.string(),
  /** Until when the seat offered is held (ISO 8601); null unless offered. */
  offerExpiresAt: z.string().nullable(),
});
export type MyWaitlistEntry = z.infer<typeof MyWaitlistEntry>;

/** A person in a section's queue as the class's teacher (or an admin) sees it: no e-mail address. */
export const WaitlistQueueEntry = z.object({
  _id: z.string(),
  /** 1 for the next to be offered a seat; null for an entry no longer waiting. */
  position: z.number().int().nullable(),
  studentName: z.string(),
  joinedAt: z.string(),
  status: WaitlistStatus,
  offerExpiresAt: z.string().nullable(),
});
export type WaitlistQueueEntry = z.infer<typeof WaitlistQueueEntry>;
