/** Business constants of spec §3 and §9, shared by the server and the web app (no Zod here). */

/** Local-storage key of the session token (spec §9). */
export const ACCESS_TOKEN_KEY = 'access-token';

/** Success toasts sit at the top end for this long (spec §9). */
export const TOAST_DURATION_MS = 1500;

export const EXPERIENCE_LEVELS = ['beginner', 'mid-level', 'experienced'] as const;
export type ExperienceLevel = (typeof EXPERIENCE_LEVELS)[number];

export const CATEGORIES = [
  'web-development',
  'digital-marketing',
  'graphic-design',
  'data-science',
  'cyber-security',
  'video-editing',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  'web-development': 'Web development',
  'digital-marketing': 'Digital marketing',
  'graphic-design': 'Graphic design',
  'data-science': 'Data science',
  'cyber-security': 'Cyber security',
  'video-editing': 'Video editing',
};

export const EXPERIENCE_LABELS: Record<ExperienceLevel, string> = {
  beginner: 'Beginner',
  'mid-level': 'Mid-level',
  experienced: 'Experienced',
};

/** spec §4; DESIGN §1.6 spells the teacher decision "approved". */
export const TEACHER_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type TeacherRequestStatus = (typeof TEACHER_REQUEST_STATUSES)[number];

/** spec §4; "archived" is DESIGN §4: a class with paid enrollments is hidden, not deleted. */
export const CLASS_STATUSES = ['pending', 'accepted', 'rejected', 'archived', 'hidden'] as const;
export type ClassStatus = (typeof CLASS_STATUSES)[number];

/** DESIGN §4: pending → paid → refunded (a refunded line gives no access; the class can be bought again). */
export const ENROLLMENT_STATUSES = ['pending', 'paid', 'refunded'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/** States of a proposed edit of an accepted class (DESIGN §4). */
export const CLASS_REVISION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ClassRevisionStatus = (typeof CLASS_REVISION_STATUSES)[number];

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A refund of money we hold: asked of the gateway (pending), then done or refused by it. */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** A student's request for a refund of one paid line, decided by an admin. */
export const REFUND_REQUEST_STATUSES = ['pending', 'approved', 'declined'] as const;
export type RefundRequestStatus = (typeof REFUND_REQUEST_STATUSES)[number];

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;
export const PHONE_MIN_DIGITS = 11;
export const PHONE_MAX_DIGITS = 20;

/** Class prices, in cents: 0.50 to 10 000. */
export const PRICE_MIN_CENTS = 50;
export const PRICE_MAX_CENTS = 1_000_000;
export const CURRENCY = 'usd';

export const PAGE_SIZE_DEFAULT = 12;
export const PAGE_SIZE_MAX = 100;

/** `relevance` ranks a search's matches (decision 018); it is the default when there is a query. */
export const CLASS_SORTS = ['relevance', 'newest', 'price-asc', 'price-desc', 'popular'] as const;
export type ClassSort = (typeof CLASS_SORTS)[number];

/** Catalogue search (decision 018): the longest query, and the suggestions shown as one types. */
export const SEARCH_QUERY_MAX = 100;
export const SUGGESTIONS_MAX = 6;

export const REVIEW_DETAILS_MAX = 1000;
/** A teacher's reply to a review (decision 046). */
export const REVIEW_REPLY_MAX = 2000;
/** GET /api/reviews: 20 a page unless ?limit= says otherwise. */
export const REVIEW_PAGE_SIZE_DEFAULT = 20;

/** The reason an admin may give when rejecting an application, a class or a class's changes. */
export const REASON_MAX = 500;

/** The roster's name for a student whose account was deleted (their paid line is kept, DESIGN §4). */
export const DELETED_STUDENT_NAME = 'Deleted account';

/** How many months the earnings `byMonth` covers: the current month (UTC) and the eleven before it. */
export const STATS_MONTHS = 12;

/** Image uploads. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MAX_PIXELS = 40_000_000;

/** The multipart field that carries the file (spec §7 image host). */
export const UPLOAD_FIELD = 'image';

/** Types read from the file's bytes, never from its name or declared type. SVG is never accepted. */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/**
 * Reports and suspensions (decision 043): what may be reported, why, and what an admin may decide.
 * `hidden` above is a class an admin took down, or one of a suspended teacher's: off every public list.
 */
export const REPORT_TARGET_TYPES = ['class', 'review', 'user', 'message', 'reply'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];
export const REPORT_REASONS = ['spam', 'abuse', 'inappropriate', 'off-platform-payment', 'scam', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_STATUSES = ['open', 'dismissed', 'actioned'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_ACTIONS = ['dismiss', 'hide', 'warn', 'suspend'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
export const REPORT_DETAILS_MAX = 1000;

/** Messages between a person and a class's teacher (decision 045): text only, at most this long. */
export const MESSAGE_BODY_MAX = 5000;
/** How much of a message a notification mail may quote (decision 045): a preview, never the whole text. */
export const MESSAGE_PREVIEW_MAX = 140;
