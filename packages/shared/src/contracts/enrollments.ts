import { z } from 'zod';
import { ENROLLMENT_STATUSES } from '../rules/constants.ts';
import { PageQuery } from './common.ts';

/** POST /api/enrolled: only the class id is read; everything else comes from the class (DESIGN §1.3). */
export const CreateEnrollmentBody = z.object({
  enrollId: z.string({ error: 'enrollId is required' }).min(1).max(64),
  /**
   * The section (run) of a live class to enroll in (decision 041). Absent: the class's oldest
   * section open for enrollment; a class without sections (self-paced) takes none.
   */
  sectionId: z.string().min(1).max(64).optional(),
});
export type CreateEnrollmentBody = z.infer<typeof CreateEnrollmentBody>;

/**
 * POST /api/enrolled answer. `insertedId` is the enrollment's id — the new one (201), or the one
 * the caller already had for that class (200, `created: false`; DESIGN §1.4). `status` tells the
 * client whether that existing enrollment is already paid.
 */
export const CreateEnrollmentResponse = z.object({
  insertedId: z.string(),
  created: z.boolean(),
  status: z.enum(ENROLLMENT_STATUSES),
});
export type CreateEnrollmentResponse = z.infer<typeof CreateEnrollmentResponse>;

export const Enrollment = z.object({
  _id: z.string(),
  enrollId: z.string(),
  email: z.string(),
  /** The teacher's name (spec §3). */
  name: z.string(),
  title: z.string(),
  image: z.string(),
  price: z.number(),
  description: z.string(),
  status: z.enum(ENROLLMENT_STATUSES),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  /**
   * False when the class was deleted (archived), rejected or sent back to review: a pending line
   * of such a class cannot be paid (the cart says so and offers to remove it; decision 010).
   */
  available: z.boolean(),
});
export type Enrollment = z.infer<typeof Enrollment>;

/**
 * GET /api/enrolled/:email: newest first; `status=pending` is the cart, `status=paid` the classes
 * taken; `classId` narrows to one class (the public class page asks whether the viewer took it).
 */
export const EnrollmentListQuery = PageQuery.extend({
  status: z.enum(ENROLLMENT_STATUSES).optional(),
  classId: z.string().min(1).max(64).optional(),
});
export type EnrollmentListQuery = z.infer<typeof EnrollmentListQuery>;

/**
 * GET /api/teachers/me/classes/:id/roster: who enrolled in one of the caller's classes, newest
 * first. `status` follows ENROLLMENT_STATUSES (a refunded status joins it with refunds). Money as
 * everywhere in the API: `price` in decimal, and `priceCents` exact.
 */
export const ClassRosterEntry = z.object({
  enrollmentId: z.string(),
  /** The account's current name; DELETED_STUDENT_NAME (`rules/constants.ts`) once the account is deleted. */
  studentName: z.string(),
  /** The address the student enrolled with; a pseudonym once the account is deleted. */
  studentEmail: z.string(),
  status: z.enum(ENROLLMENT_STATUSES),
  enrolledAt: z.string(),
  paidAt: z.string().nullable(),
  priceCents: z.number().int(),
  price: z.number(),
});
export type ClassRosterEntry = z.infer<typeof ClassRosterEntry>;

export const ClassRosterQuery = PageQuery;
export type ClassRosterQuery = z.infer<typeof ClassRosterQuery>;
