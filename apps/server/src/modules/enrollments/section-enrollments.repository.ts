import { and, count, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { enrollments } from '../../db/schema/enrollments.ts';

/** Enrollments counted per section of a live class (decision 041). */

/** Paid students per section of a class. */
export async function paidCountsOfSections(db: Db, classId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ sectionId: enrollments.sectionId, n: count() })
    .from(enrollments)
    .where(and(eq(enrollments.classId, classId), eq(enrollments.status, 'paid'), isNotNull(enrollments.sectionId)))
    .groupBy(enrollments.sectionId);
  return new Map(rows.map((row) => [row.sectionId!, row.n]));
}

/** Paid students of one section. */
export async function paidCountOfSection(db: Db, sectionId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(enrollments)
    .where(and(eq(enrollments.sectionId, sectionId), eq(enrollments.status, 'paid')));
  return row?.n ?? 0;
}

/** Puts the class's enrollments that have no section into its first one (decision 041). */
export async function attachEnrollmentsToSection(db: Db, classId: string, sectionId: string): Promise<void> {
  await db
    .update(enrollments)
    .set({ sectionId })
    .where(and(eq(enrollments.classId, classId), isNull(enrollments.sectionId)));
}
