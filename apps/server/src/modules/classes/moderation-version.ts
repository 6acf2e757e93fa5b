import { createHash } from 'node:crypto';

/** The moderated fields of a pending class, or of a revision (null: a field the revision keeps). */
interface ModeratedFields {
  title: string | null;
  description: string | null;
  priceCents: number | null;
  imageKey: string | null;
  category: string | null;
}

/**
 * What an admin reviews, as a short digest (decision 027): the same fields give the same version,
 * any edit a new one. Approve and reject carry the version the admin was shown and are refused
 * when it is no longer the one pending, so a decision applies only what was reviewed.
 */
export function moderationVersion(fields: ModeratedFields): string {
  const canonical = JSON.stringify([
    fields.title,
    fields.description,
    fields.priceCents,
    fields.imageKey,
    fields.category,
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

/** The 409 of a decision on a version that is no longer the pending one. */
export const VERSION_CHANGED = 'The teacher changed this since you opened it. Review the new version.';
