import { and, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { classAnnouncements } from '../../db/schema/content.ts';

export type AnnouncementRow = typeof classAnnouncements.$inferSelect;

export async function insertAnnouncement(
  db: Db,
  values: { classId: string; sectionId: string | null; teacherId: string; body: string; recipients: number },
): Promise<AnnouncementRow> {
  const [row] = await db.insert(classAnnouncements).values(values).returning();
  return row!;
}

/**
 * A class's latest announcements, newest first (class_announcements_class_idx); with `sectionIds`,
 * only those to the whole class and to those sections.
 */
export function listAnnouncements(
  db: Db,
  classId: string,
  options: { sectionIds: string[] | null; limit: number },
): Promise<AnnouncementRow[]> {
  const { sectionIds } = options;
  const audience = sectionIds
    ? or(
        isNull(classAnnouncements.sectionId),
        sectionIds.length ? inArray(classAnnouncements.sectionId, sectionIds) : undefined,
      )
    : undefined;
  return db
    .select()
    .from(classAnnouncements)
    .where(and(eq(classAnnouncements.classId, classId), audience))
    .orderBy(desc(classAnnouncements.createdAt), desc(classAnnouncements.id))
    .limit(options.limit);
}
