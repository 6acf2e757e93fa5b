import { CONTENT_ITEMS_MAX, CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { type ContentDeps, loadOwnedClass, lockClassContent } from './content-access.ts';

/** The repository reads and writes of one of a class's two lists (its sessions, its materials). */
export interface ContentList<Row extends { id: string }, Values> {
  count: (tx: Db, classId: string) => Promise<{ n: number; nextPosition: number }>;
  insert: (tx: Db, values: Values & { classId: string; position: number }) => Promise<Row>;
  listAll: (tx: Db, classId: string) => Promise<Row[]>;
  setOrder: (tx: Db, ids: string[]) => Promise<void>;
}

/**
 * Adds drafts at the end of a list, in the order given, at most CONTENT_ITEMS_MAX in the list: all
 * of them or none. The class row is not ours to lock; its items are counted under a
 * transaction-level advisory lock keyed on the class, so two adds at once get distinct positions.
 */
export function insertAllAtEnd<Row extends { id: string }, Values>(
  deps: Pick<ContentDeps, 'db'>,
  list: ContentList<Row, Values>,
  classId: string,
  values: Values[],
): Promise<Row[]> {
  return deps.db.transaction(async (tx) => {
    await lockClassContent(tx, classId);
    const { n, nextPosition } = await list.count(tx, classId);
    if (n + values.length > CONTENT_ITEMS_MAX) throw conflict(CONTENT_MESSAGES.tooMany);
    const rows: Row[] = [];
    for (const [i, item] of values.entries()) {
      rows.push(await list.insert(tx, { ...item, classId, position: nextPosition + i }));
    }
    return rows;
  });
}

/** Adds one draft at the end of a list (insertAllAtEnd). */
export async function insertAtEnd<Row extends { id: string }, Values>(
  deps: Pick<ContentDeps, 'db'>,
  list: ContentList<Row, Values>,
  classId: string,
  values: Values,
): Promise<Row> {
  const [row] = await insertAllAtEnd(deps, list, classId, [values]);
  return row!;
}

/** PUT …/order: `ids` must be every item of the list, once each; answers the list in its new order. */
export async function reorder<Row extends { id: string }>(
  deps: ContentDeps,
  viewer: Viewer,
  list: ContentList<Row, never>,
  classId: string,
  ids: string[],
): Promise<Row[]> {
  await loadOwnedClass(deps.db, viewer, classId);
  return deps.db.transaction(async (tx) => {
    await lockClassContent(tx, classId);
    const known = new Set((await list.listAll(tx, classId)).map((row) => row.id));
    if (ids.length !== known.size || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id))) {
      throw new AppError(ErrorCode.VALIDATION, CONTENT_MESSAGES.orderMismatch, {
        fields: { ids: CONTENT_MESSAGES.orderMismatch },
      });
    }
    await list.setOrder(tx, ids);
    return list.listAll(tx, classId);
  });
}

/** Publishing keeps the first publication time (publishing twice changes nothing); a draft has none. */
export function publishedAtAfter(published: boolean, item: { publishedAt: Date | null }, now: Date): Date | null {
  return published ? (item.publishedAt ?? now) : null;
}
