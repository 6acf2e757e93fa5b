import { z } from 'zod';
import { CATEGORIES, EXPERIENCE_LEVELS, TEACHER_REQUEST_STATUSES } from '../rules/constants.ts';
import { RejectReasonBody } from '../rules/reject-reason.ts';
import { PageQuery } from './common.ts';

export const TeacherRequest = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  image: z.string().nullable(),
  experience: z.enum(EXPERIENCE_LEVELS),
  title: z.string(),
  category: z.enum(CATEGORIES),
  status: z.enum(TEACHER_REQUEST_STATUSES),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type TeacherRequest = z.infer<typeof TeacherRequest>;

/** GET /api/teachers/teacher-requests (admins): newest first, optionally one status and a search. */
export const TeacherRequestListQuery = PageQuery.extend({
  status: z.enum(TEACHER_REQUEST_STATUSES).optional(),
  /** Part of the applicant's name or e-mail, or of the title they teach. */
  q: z.string().trim().max(100).optional(),
});
export type TeacherRequestListQuery = z.infer<typeof TeacherRequestListQuery>;

/** GET /api/teachers/teacher-requests/mine: the caller's latest request, or null if they never applied. */
export const MyTeacherRequestResponse = TeacherRequest.nullable();
export type MyTeacherRequestResponse = z.infer<typeof MyTeacherRequestResponse>;

/**
 * PATCH /api/teachers/teacher-requests/:id/reject: an optional reason, e-mailed to the applicant;
 * the reject dialog's RejectReasonBody, as a classic object the route can make `nullish()`.
 */
export const RejectTeacherRequestBody = z.object(RejectReasonBody.shape);
export type RejectTeacherRequestBody = z.infer<typeof RejectTeacherRequestBody>;
