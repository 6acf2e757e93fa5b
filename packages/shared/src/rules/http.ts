/** The API's wire vocabulary the server and the web app both read: error codes and header names. */

/** `error.code` of every error body (DESIGN §3); the body's schema is `contracts/errors.ts`. */
export const ErrorCode = {
  /** The request's body, params or query failed validation, or its JSON is malformed. */
  VALIDATION: 'validation_error',
  /** No valid session or token accompanied a call that needs one. */
  UNAUTHENTICATED: 'unauthenticated',
  /** The caller is known but lacks the role or ownership the call needs. */
  FORBIDDEN: 'forbidden',
  /** The call needs a verified e-mail address (applying to teach, paying); the body says how to verify. */
  EMAIL_NOT_VERIFIED: 'email_not_verified',
  /** The resource does not exist, or the caller may not know it exists. */
  NOT_FOUND: 'not_found',
  /** The call conflicts with the resource's current state (spec §4 state machines). */
  CONFLICT: 'conflict',
  /** The gateway declined the card. */
  CARD_DECLINED: 'card_declined',
  /** The card has insufficient funds. */
  INSUFFICIENT_FUNDS: 'insufficient_funds',
  /** The upload is larger than allowed. */
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  /** The upload is not a supported image type. */
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  /** Too many attempts; try again later. */
  RATE_LIMITED: 'rate_limited',
  /** The database or another dependency is unreachable. */
  UNAVAILABLE: 'unavailable',
  /** Anything unexpected; details are logged, never returned. */
  INTERNAL: 'internal_error',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Lists are paged with ?page=&limit= (DESIGN §3); the total travels in this header. */
export const TOTAL_COUNT_HEADER = 'x-total-count';

/**
 * Sent as "true" with X-Total-Count when the total is a floor, not a count: a search counts its
 * matches only up to a cap (1 000), and more than that many match ("1,000+ classes").
 */
export const TOTAL_COUNT_CAPPED_HEADER = 'x-total-count-capped';
