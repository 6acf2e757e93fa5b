/**
 * Waitlists of full sections (decision 051): the states of an entry and the messages of the
 * server's refusals and of the class page. No Zod: pages read these on first render.
 */

/**
 * waiting → offered (a seat is held for the person until `offerExpiresAt`) → claimed (carted) or
 * expired (the seat passes to the next); waiting or offered → left (the person left the list) or
 * cancelled (the section was cancelled).
 */
export const WAITLIST_STATUSES = ['waiting', 'offered', 'claimed', 'expired', 'left', 'cancelled'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** How many people one section's queue lists per page for its teacher. */
export const WAITLIST_PAGE_MAX = 100;

export const WAITLIST_MESSAGES = {
  notFull: 'This section still has seats: enroll instead of joining its waiting list',
  alreadyWaiting: 'You are already on the waiting list of this section',
  alreadyEnrolled: 'You are already enrolled in this class',
  inCart: 'This class is in your cart: pay for it, or remove it before joining a waiting list',
  notWaiting: 'You are not on the waiting list of this section',
  offerExpired:
    'The seat held for you ran out and passed to the next person waiting. Join the waiting list again to be offered the next free seat',
  ownClass: 'You teach this class',
} as const;
