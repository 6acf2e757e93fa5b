import { z } from 'zod';
import { CATEGORIES, CLASS_SORTS, CLASS_STATUSES } from './constants.ts';
import { PageQuery } from './common.ts';

// The class form's schemas live with the other form schemas (zod/mini).
export { CLASS_MESSAGES, CreateClassBody, ImageUrl, Price, UpdateClassBody } from './forms.ts';

/** PATCH /api/classes/class-requests/:id/reject: an optional reason its teacher sees; no body at all is fine. */
export const RejectClassBody = z.object({ reason: z.string().trim().max(500).optional() }).nullish();
export type RejectClassBody = z.infer<typeof RejectClassBody>;

/** PATCH /api/classes/:id and the moderation calls (DESIGN §1.7: a success the client can read). */
export const ClassModifiedResponse = z.object({ modifiedCount: z.number().int(), success: z.literal(true) });
export type ClassModifiedResponse = z.infer<typeof ClassModifiedResponse>;

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
});
export type ClassStats = z.infer<typeof ClassStats>;
