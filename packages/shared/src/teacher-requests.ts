import { z } from 'zod';
import { CATEGORIES, EXPERIENCE_LEVELS, TEACHER_REQUEST_STATUSES } from './constants.ts';
import { PageQuery } from './common.ts';

// The application form's schema lives with the other form schemas (zod/mini).
export { CreateTeacherRequestBody, TEACH_MESSAGES } from './forms.ts';

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

/** GET /api/teachers/teacher-requests (admins): newest first, optionally one status. */
export const TeacherRequestListQuery = PageQuery.extend({
  status: z.enum(TEACHER_REQUEST_STATUSES).optional(),
});
export type TeacherRequestListQuery = z.infer<typeof TeacherRequestListQuery>;

/** GET /api/teachers/teacher-requests/mine: the caller's latest request, or null if they never applied. */
export const MyTeacherRequestResponse = TeacherRequest.nullable();
export type MyTeacherRequestResponse = z.infer<typeof MyTeacherRequestResponse>;

/** PATCH /api/teachers/teacher-requests/:id/reject: an optional reason, e-mailed to the applicant. */
export const RejectTeacherRequestBody = z.object({
  reason: z.string().trim().max(500, 'The reason must be at most 500 characters').optional(),
});
export type RejectTeacherRequestBody = z.infer<typeof RejectTeacherRequestBody>;
