import type { ExperienceLevel } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { findLatestApprovedRequestOfUser } from './teacher-requests.repository.ts';

/**
 * What a public class page says about its teacher: the title and experience they
 * gave in their approved application (spec §3 teacher request). Null for a teacher made without
 * one (the demo data, an admin's seed). Nothing private: no e-mail, no application status.
 */
export async function teacherHeadlineOf(
  db: Db,
  userId: string,
): Promise<{ headline: string; experience: ExperienceLevel } | null> {
  const request = await findLatestApprovedRequestOfUser(db, userId);
  return request ? { headline: request.title, experience: request.experience } : null;
}
