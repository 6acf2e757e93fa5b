import { z } from 'zod/mini';
import { CATEGORIES, EXPERIENCE_LEVELS } from './constants.ts';
import { requiredText } from './fields.ts';
import { TEACH_MESSAGES } from './messages.ts';

/**
 * POST /api/teachers/teacher-requests. Name, e-mail and image come from the account and status is
 * always pending (DESIGN §1.1), so the body carries only what the applicant chooses.
 */
export const CreateTeacherRequestBody = z.object({
  experience: z.enum(EXPERIENCE_LEVELS, { error: TEACH_MESSAGES.experienceRequired }),
  title: requiredText(TEACH_MESSAGES.titleRequired, 120, 'Title must be at most 120 characters'),
  category: z.enum(CATEGORIES, { error: TEACH_MESSAGES.categoryRequired }),
});
export type CreateTeacherRequestBody = z.infer<typeof CreateTeacherRequestBody>;
