import type { Db } from '../../db/client.ts';
import * as repo from './content.repository.ts';

/**
 * A section's sessions moved together (decision 052): the sections module reschedules a section
 * through these, in its own transaction.
 */

/** A section's sessions (drafts too), by start. */
export async function listSessionsOfSection(db: Db, classId: string, sectionId: string): Promise<repo.SessionRow[]> {
  const rows = await repo.listSessionsOfClass(db, classId, { publishedOnly: false, sectionIds: [sectionId] });
  return rows.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.id.localeCompare(b.id));
}

/**
 * Moves every session of a section by `shiftMs`, under the class's content lock, and records for
 * each paid student that they were told the new time of each published session (the reschedule mail
 * names them all), so a later move of one session compares with these times (decision 027).
 * Answers the sessions as they are now, by start.
 */
export async function shiftSessionsOfSection(
  tx: Db,
  input: { classId: string; sectionId: string; shiftMs: number; studentIds: readonly string[]; now: Date },
): Promise<repo.SessionRow[]> {
  await repo.lockClassContent(tx, input.classId);
  const moved: repo.SessionRow[] = [];
  for (const session of await listSessionsOfSection(tx, input.classId, input.sectionId)) {
    const updated = await repo.updateSession(tx, session.id, {
      startsAt: new Date(session.startsAt.getTime() + input.shiftMs),
      updatedAt: input.now,
    });
    moved.push(updated);
    if (!updated.publishedAt) continue;
    for (const studentId of input.studentIds) {
      await repo.saveMoveNotice(tx, {
        sessionId: updated.id,
        studentId,
        toldStartsAt: updated.startsAt,
        toldTimeZone: updated.timeZone,
        toldDurationMinutes: updated.durationMinutes,
        mailedAt: input.now,
      });
    }
  }
  return moved;
}
