import { z } from 'zod';
import { CATEGORIES, EXPERIENCE_LEVELS, TEACHER_REQUEST_STATUSES } from './constants.ts';
import { PageQuery } from './common.ts';

export const TEACH_MESSAGES = {
  experienceRequired: 'Experience is required',
  titleRequired: 'Title is required',
  categoryRequired: 'Category is required',
} as const;

/**
 * POST /api/teachers/teacher-requests. Name, e-mail and image come from the account and status is
 * always pending (DESIGN §1.1), so the body carries only what the applicant chooses.
 */
export const CreateTeacherRequestBody = z.object({
  experience: z.enum(EXPERIENCE_LEVELS, { error: TEACH_MESSAGES.experienceRequired }),
  title: z
    .string({ error: TEACH_MESSAGES.titleRequired })
    .trim()
    .min(1, TEACH_MESSAGES.titleRequired)
    .max(120, 'Title must be at most 120 characters'),
  category: z.enum(CATEGORIES, { error: TEACH_MESSAGES.categoryRequired }),
});
export type CreateTeacherRequestBody = z.infer<typeof CreateTeacherRequestBody>;

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
