import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sections } from '../../db/schema/sections.ts';

/** Sections of a live class (decision 041): Drizzle only. */

export type SectionRow = typeof sections.$inferSelect;
export type SectionValues = Pick<
  typeof sections.$inferInsert,
  'timeZone' | 'capacity' | 'minimum' | 'enrollOpensAt' | 'enrollClosesAt'
>;

export async function insertSection(db: Db, values: SectionValues & { classId: string }): Promise<SectionRow> {
  const [row] = await db.insert(sections).values(values).returning();
  return row!;
}

export async function updateSection(
  db: Db,
  id: string,
  values: Partial<SectionValues> & { updatedAt: Date },
): Promise<SectionRow> {
  const [row] = await db.update(sections).set(values).where(eq(sections.id, id)).returning();
  return row!;
}

export async function findSection(db: Db, id: string, options: { lock?: boolean } = {}): Promise<SectionRow | null> {
  const query = db.select().from(sections).where(eq(sections.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** A class's sections, oldest first (the order its teacher made them). */
export async function listSectionsOfClass(db: Db, classId: string): Promise<SectionRow[]> {
  return db
    .select()
    .from(sections)
    .where(eq(sections.classId, classId))
    .orderBy(asc(sections.createdAt), asc(sections.id));
}

export async function countSectionsOfClass(db: Db, classId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(sections).where(eq(sections.classId, classId));
  return row?.n ?? 0;
}

/** The class's oldest section still running: where a session goes when none is named. */
export async function findFirstActiveSection(db: Db, classId: string): Promise<SectionRow | null> {
  const [row] = await db
    .select()
    .from(sections)
    .where(and(eq(sections.classId, classId), eq(sections.status, 'active')))
    .orderBy(asc(sections.createdAt), asc(sections.id))
    .limit(1);
  return row ?? null;
}
