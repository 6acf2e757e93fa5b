import { z } from 'zod';
import { ClassProgressSummary } from './content.ts';
import { CATEGORIES, CLASS_REVISION_STATUSES, CLASS_SORTS, CLASS_STATUSES } from '../rules/constants.ts';
import { RejectReasonBody } from '../rules/reject-reason.ts';
import { PageQuery } from './common.ts';

/** PATCH /api/classes/class-requests/:id/reject: an optional reason its teacher sees; no body at all is fine. */
export const RejectClassBody = z.nullish(RejectReasonBody);
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
});
export type ClassRevision = z.infer<typeof ClassRevision>;

/** GET /api/classes/:id/revision: the pending revision, else a rejected latest one, else null. */
export const ClassRevisionResponse = z.object({ revision: ClassRevision.nullable() });
export type ClassRevisionResponse = z.infer<typeof ClassRevisionResponse>;

/** GET /api/classes/revisions: oldest pending first. */
export const ClassRevisionsQuery = PageQuery;
export type ClassRevisionsQuery = z.infer<typeof ClassRevisionsQuery>;

/** PATCH /api/classes/revisions/:id/reject: an optional reason its teacher sees. */
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
  /** Teacher lists only: the class's latest proposed edit, when pending or rejected (DESIGN §4). */
  revision: z
    .object({ status: z.enum(['pending', 'rejected']), rejectionReason: z.string().nullable() })
    .nullable()
    .optional(),
});
export type ClassItem = z.infer<typeof ClassItem>;

/** GET /api/classes: public callers see accepted classes only. */
export const ClassListQuery = PageQuery.extend({
  q: z.string().trim().max(100).optional(),
  category: z.enum(CATEGORIES).optional(),
  sort: z.enum(CLASS_SORTS).default('newest'),
  /** Admins only; everyone else sees accepted classes. */
  status: z.enum(CLASS_STATUSES).optional(),
});
export type ClassListQuery = z.infer<typeof ClassListQuery>;

/** GET /api/classes/teacher/:email: newest first, every status but archived. */
export const TeacherClassesQuery = PageQuery;
export type TeacherClassesQuery = z.infer<typeof TeacherClassesQuery>;

/** GET /api/classes/:id/stats */
export const ClassStats = z.object({
  enrolledStudents: z.number().int(),
  paidStudents: z.number().int(),
  revenue: z.number(),
  perWeek: z.array(z.object({ week: z.string(), enrollments: z.number().int() })),
  /** Class content (issue 21): sessions held, paid students and their average completion. */
  progress: ClassProgressSummary,
});
export type ClassStats = z.infer<typeof ClassStats>;
