import type { PublicClass } from '@skillhive/shared/contracts/classes';
import { centsToDecimal } from '@skillhive/shared/rules/money';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/app-error.ts';
import { ratingBreakdownOf } from '../reviews/reviews.service.ts';
import { teacherHeadlineOf } from '../teacher-requests/teacher-profile.public.ts';
import type { ImageStorage } from '../uploads/storage.public.ts';
import { publicImageOf } from '../users/contact.public.ts';
import * as repo from './classes.repository.ts';

/** How many of the teacher's other classes the page shows. */
export const OTHER_CLASSES_MAX = 4;

const averageOf = (row: { ratingSum: number; reviewCount: number }) =>
  row.reviewCount > 0 ? Math.round((row.ratingSum / row.reviewCount) * 100) / 100 : null;

/**
 * The public page of an accepted class, the same for every visitor: anything but an
 * accepted class is not found, whoever asks (its teacher and admins manage it in the dashboard).
 * Only public fields: no e-mail, status or moderation reason.
 */
export async function getPublicClass(db: Db, storage: ImageStorage, id: string): Promise<PublicClass> {
  const row = await repo.findClassById(db, id);
  if (!row || row.status !== 'accepted') throw notFound('Class');
  const [ratingBreakdown, others, image, headline] = await Promise.all([
    ratingBreakdownOf(db, row.id),
    repo.listOtherAcceptedClasses(db, row.teacherId, row.id, OTHER_CLASSES_MAX),
    publicImageOf(db, row.teacherId),
    teacherHeadlineOf(db, row.teacherId),
  ]);
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    price: centsToDecimal(row.priceCents),
    image: storage.publicUrl(row.imageKey),
    category: row.category,
    totalEnrollment: row.enrollmentCount,
    rating: averageOf(row),
    reviewCount: row.reviewCount,
    createdAt: row.createdAt.toISOString(),
    ratingBreakdown,
    teacher: {
      _id: row.teacherId,
      name: row.teacherName,
      image,
      headline: headline?.headline ?? null,
      experience: headline?.experience ?? null,
      otherClasses: others.map((other) => ({
        _id: other.id,
        title: other.title,
        image: storage.publicUrl(other.imageKey),
        price: centsToDecimal(other.priceCents),
        rating: averageOf(other),
        reviewCount: other.reviewCount,
      })),
    },
  };
}

/** What a shared link of an accepted class's page shows (its title, description and image); null otherwise. */
export async function getClassPageMeta(
  db: Db,
  storage: ImageStorage,
  id: string,
): Promise<{ title: string; description: string; image: string } | null> {
  const row = await repo.findClassById(db, id);
  if (!row || row.status !== 'accepted') return null;
  return { title: row.title, description: row.description, image: storage.publicUrl(row.imageKey) };
}
