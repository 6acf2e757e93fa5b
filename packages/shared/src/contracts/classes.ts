import { z } from 'zod';
import { ClassProgressSummary } from './content.ts';
import {
  CATEGORIES,
  CLASS_REVISION_STATUSES,
  CLASS_SORTS,
  CLASS_STATUSES,
  PRICE_MAX_CENTS,
  SEARCH_QUERY_MAX,
  SUGGESTIONS_MAX,
} from '../rules/constants.ts';
import { RejectReasonBody } from '../rules/reject-reason.ts';
import { checkScheduleFilter, ScheduleFilterQuery } from '../rules/schedule-filter.ts';
import { PageQuery } from './common.ts';

/**
 * What an admin reviewed (decision 027): the `version` a pending class or revision was answered
 * with. A teacher's edit makes a new version, and a decision carrying an older one is refused (409).
 */
export const ModerationVersion = z.string().min(1).max(64);

/** PATCH /api/classes/class-requests/:id/approve and /api/classes/revisions/:id/approve. */
export const ApproveClassBody = z.object({ version: ModerationVersion });
export type ApproveClassBody = z.infer<typeof ApproveClassBody>;

/** PATCH /api/classes/class-requests/:id/reject: the version reviewed and an optional reason its teacher sees. */
export const RejectClassBody = z.object({ ...RejectReasonBody.shape, version: ModerationVersion });
export type RejectClassBody = z.infer<typeof RejectClassBody>;

/**
 * PATCH /api/classes/:id and the moderation calls (DESIGN §1.7: a success the client can read).
 * `pendingReview`: the edit of an accepted class was stored as a revision for an admin to review;
 * the approved version stays on sale meanwhile (DESIGN §4).
 */
export const ClassModifiedResponse = z.object({
  modifiedCount: z.number().int(),
  success: z.literal(true),
  pendingReview: z.boolean().optional(),
});
export type ClassModifiedResponse = z.infer<typeof ClassModifiedResponse>;

/** The moderated fields of a class: an edit of one of these on an accepted class is a revision. */
export const ClassFields = z.object({
  title: z.string(),
  description: z.string(),
  price: z.number(),
  image: z.string(),
  category: z.enum(CATEGORIES),
});
export type ClassFields = z.infer<typeof ClassFields>;

/**
 * A revision of a class: what is live now (`current`) and only the fields the teacher changed
 * (`proposed`). GET /api/classes/revisions (admin), GET /api/classes/:id/revision (its teacher).
 */
export const ClassRevision = z.object({
  _id: z.string(),
  classId: z.string(),
  /** The class's teacher (spec §3 names). */
  name: z.string(),
  email: z.string(),
  status: z.enum(CLASS_REVISION_STATUSES),
  rejectionReason: z.string().nullable(),
  current: ClassFields,
  proposed: ClassFields.partial(),
  createdAt: z.string(),
  updatedAt: z.string(),
  decidedAt: z.string().nullable(),
  /** What the admin's approve or reject call carries back (decision 027). */
  version: ModerationVersion,
});
export type ClassRevision = z.infer<typeof ClassRevision>;

/** GET /api/classes/:id/revision: the pending revision, else a rejected latest one, else null. */
export const ClassRevisionResponse = z.object({ revision: ClassRevision.nullable() });
export type ClassRevisionResponse = z.infer<typeof ClassRevisionResponse>;

/** GET /api/classes/revisions: oldest pending first. */
export const ClassRevisionsQuery = PageQuery;
export type ClassRevisionsQuery = z.infer<typeof ClassRevisionsQuery>;

/** PATCH /api/classes/revisions/:id/reject: the version reviewed and an optional reason its teacher sees. */
export const RejectRevisionBody = RejectClassBody;
export type RejectRevisionBody = z.infer<typeof RejectRevisionBody>;

export const ClassItem = z.object({
  _id: z.string(),
  title: z.string(),
  /** The teacher's name and e-mail (spec §3). */
  name: z.string(),
  email: z.string(),
  price: z.number(),
  description: z.string(),
  image: z.string(),
  category: z.enum(CATEGORIES),
  status: z.enum(CLASS_STATUSES),
  rejectionReason: z.string().nullable(),
  totalEnrollment: z.number().int(),
  rating: z.number().nullable(),
  reviewCount: z.number().int(),
  createdAt: z.string(),
  /**
   * The catalogue only (decision 053): the earliest start of a published session still to come in
   * a running section whose enrollment has not closed, as an instant; null for none (a self-paced
   * class, or no date yet). The browser shows it in the visitor's zone.
   */
  nextSessionAt: z.string().nullable().optional(),
  /** A pending class only: what the admin's accept or reject call carries back (decision 027). */
  version: ModerationVersion.optional(),
  /** Teacher lists only: the class's latest proposed edit, when pending or rejected (DESIGN §4). */
  revision: z
    .object({ status: z.enum(['pending', 'rejected']), rejectionReason: z.string().nullable() })
    .nullable()
    .optional(),
});
export type ClassItem = z.infer<typeof ClassItem>;

const PRICE_MAX = PRICE_MAX_CENTS / 100;

/** A price bound of the catalogue filter, in dollars (cents allowed), 0 to the highest class price. */
const PriceBound = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .min(0, `${name} must be at least 0`)
    .max(PRICE_MAX, `${name} must be at most ${PRICE_MAX}`)
    .optional();

/**
 * GET /api/classes: public callers see accepted classes only. `q` matches words of the title,
 * description and teacher's name by prefix, and misspelled words by their nearest known word
 * (decision 018). Without `sort`, a search is ranked by relevance, the rest newest first.
 */
export const ClassListQuery = PageQuery.extend({
  q: z.string().trim().max(SEARCH_QUERY_MAX, `Search at most ${SEARCH_QUERY_MAX} characters`).optional(),
  category: z.enum(CATEGORIES, { error: 'Unknown category' }).optional(),
  sort: z.enum(CLASS_SORTS, { error: `sort must be one of ${CLASS_SORTS.join(', ')}` }).optional(),
  minPrice: PriceBound('minPrice'),
  maxPrice: PriceBound('maxPrice'),
  /** Classes whose average rating is at least this (1 to 5); unrated classes are left out. */
  minRating: z.coerce
    .number({ error: 'minRating must be a number' })
    .min(1, 'minRating must be between 1 and 5')
    .max(5, 'minRating must be between 1 and 5')
    .optional(),
  /**
   * Admins only: one status, or `all` (every status but archived). Without it everyone, admins
   * included, gets the public catalogue of accepted classes.
   */
  status: z.enum([...CLASS_STATUSES, 'all']).optional(),
  ...ScheduleFilterQuery.shape,
})
  .refine((query) => query.minPrice === undefined || query.maxPrice === undefined || query.minPrice <= query.maxPrice, {
    path: ['maxPrice'],
    message: 'maxPrice must not be below minPrice',
  })
  .superRefine(checkScheduleFilter);
export type ClassListQuery = z.infer<typeof ClassListQuery>;

/** GET /api/classes/suggestions: what the search box offers while one types. */
export const ClassSuggestionsQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'Type something to search')
    .max(SEARCH_QUERY_MAX, `Search at most ${SEARCH_QUERY_MAX} characters`),
  limit: z.coerce.number().int().min(1).max(SUGGESTIONS_MAX).default(SUGGESTIONS_MAX),
});
export type ClassSuggestionsQuery = z.infer<typeof ClassSuggestionsQuery>;

/** One suggestion: an accepted class that the search would rank first. */
export const ClassSuggestion = z.object({
  _id: z.string(),
  title: z.string(),
  /** The teacher's name. */
  name: z.string(),
  category: z.enum(CATEGORIES),
});
export type ClassSuggestion = z.infer<typeof ClassSuggestion>;

/** GET /api/classes/categories: how many accepted classes each category has (the hero's links). */
export const CategoryCount = z.object({ category: z.enum(CATEGORIES), total: z.number().int() });
export type CategoryCount = z.infer<typeof CategoryCount>;

/** A class as its public page shows it: no e-mail, status or moderation fields: anyone may read it. */
export const PublicClass = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  price: z.number(),
  image: z.string(),
  category: z.enum(CATEGORIES),
  totalEnrollment: z.number().int(),
  rating: z.number().nullable(),
  reviewCount: z.number().int(),
  createdAt: z.string(),
  /** How many reviews gave 1 to 5 stars (index 0 is one star). */
  ratingBreakdown: z.array(z.number().int()).length(5),
  teacher: z.object({
    /** The teacher's account id: what a report of the teacher names (decision 043). */
    _id: z.string(),
    /** The teacher's public name, photo and short bio; never their e-mail. */
    name: z.string(),
    image: z.string().nullable(),
    /** The title they gave when applying to teach (spec §3 teacher request), and their experience. */
    headline: z.string().nullable(),
    /** One of EXPERIENCE_LEVELS (a string in the document: OpenAPI 3.0 has no nullable enum). */
    experience: z.string().nullable(),
    /** Up to four of the teacher's other accepted classes, newest first. */
    otherClasses: z.array(
      z.object({
        _id: z.string(),
        title: z.string(),
        image: z.string(),
        price: z.number(),
        rating: z.number().nullable(),
        reviewCount: z.number().int(),
      }),
    ),
  }),
});
export type PublicClass = z.infer<typeof PublicClass>;

/** GET /api/classes/teacher/:email: newest first, every status but archived. */
export const TeacherClassesQuery = PageQuery;
export type TeacherClassesQuery = z.infer<typeof TeacherClassesQuery>;

/**
 * GET /api/classes/:id/stats. Students are paid lines, refunded ones not counted (decision 003: a
 * line in a cart is nobody's enrollment); `revenue` is what they paid; `perWeek` counts them by the
 * week (UTC, from Monday) they paid.
 */
export const ClassStats = z.object({
  paidStudents: z.number().int(),
  revenue: z.number(),
  perWeek: z.array(z.object({ week: z.string(), enrollments: z.number().int() })),
  /** Class content (decision 021): sessions held, paid students and their average completion. */
  progress: ClassProgressSummary,
});
export type ClassStats = z.infer<typeof ClassStats>;
