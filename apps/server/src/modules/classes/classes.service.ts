import { CATEGORIES } from '@skillhive/shared/rules/constants';
import type {
  CategoryCount,
  ClassItem,
  ClassListQuery,
  ClassSuggestion,
  ClassSuggestionsQuery,
  ClassModifiedResponse,
  ClassStats,
  TeacherClassesQuery,
} from '@skillhive/shared/contracts/classes';
import type { CreateClassBody, UpdateClassBody } from '@skillhive/shared/rules/class-form';
import { centsToDecimal, decimalToCents } from '@skillhive/shared/rules/money';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, ErrorCode, forbidden, notFound } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import type { ShortCache } from '../../lib/short-cache.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { classDecidedMail, queueMail } from '../mail/mail.service.ts';
import * as content from '../content/content.service.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import { notify, type NotificationPublisher } from '../notifications/notifications.public.ts';
import { findUserIdByEmail, wantsNotification } from '../users/contact.public.ts';
import type { ImageStorage } from '../uploads/storage.public.ts';
import { resolveUploadedImageKey } from '../uploads/uploads.service.ts';
import { nextStartsOfClasses, scheduleMatchOf } from '../sections/sections.public.ts';
import * as catalogue from './catalogue.repository.ts';
import * as revisions from './class-revisions.repository.ts';
import { proposeRevision } from './class-revisions.service.ts';
import * as repo from './classes.repository.ts';
import { VERSION_CHANGED, moderationVersion } from './moderation-version.ts';
import {
  CORRECTIONS_PER_WORD,
  correctableWords,
  parseSearch,
  SEARCH_TOTAL_CAP,
  toTsqueryExpression,
} from './search-query.ts';

const STATS_WEEKS = 12;
const DAY_MS = 24 * 60 * 60 * 1000;
const IMAGE_NOT_OURS = 'Upload the image first: only images uploaded to SkillHive can be used';

/** The one serialization of a class (spec §3 field names), shared with the enrollment module. */
export function toClassItem(row: repo.ClassRow, storage: ImageStorage): ClassItem {
  return {
    _id: row.id,
    title: row.title,
    name: row.teacherName,
    email: row.teacherEmail,
    price: centsToDecimal(row.priceCents),
    description: row.description,
    image: storage.publicUrl(row.imageKey),
    category: row.category,
    status: row.status,
    rejectionReason: row.rejectionReason,
    totalEnrollment: row.enrollmentCount,
    rating: row.reviewCount > 0 ? Math.round((row.ratingSum / row.reviewCount) * 100) / 100 : null,
    reviewCount: row.reviewCount,
    createdAt: row.createdAt.toISOString(),
    ...(row.status === 'pending' ? { version: moderationVersion(row) } : {}),
  };
}

const isOwner = (viewer: Viewer | null, row: repo.ClassRow) => viewer !== null && viewer.id === row.teacherId;

async function imageKeyOf(db: Db, storage: ImageStorage, url: string): Promise<string> {
  const key = await resolveUploadedImageKey(db, storage, url);
  if (!key) throw new AppError(ErrorCode.VALIDATION, IMAGE_NOT_OURS, { fields: { image: IMAGE_NOT_OURS } });
  return key;
}

async function loadClass(db: Db, id: string): Promise<repo.ClassRow> {
  const row = await repo.findClassById(db, id);
  if (!row) throw notFound('Class');
  return row;
}

/**
 * A teacher adds a class (spec §7): name and e-mail are the account's, status pending, price in
 * cents (DESIGN §1.1, §1.3), the image one of our uploads.
 */
export async function createClass(
  db: Db,
  storage: ImageStorage,
  teacher: Viewer,
  body: CreateClassBody,
): Promise<{ insertedId: string }> {
  const imageKey = await imageKeyOf(db, storage, body.image);
  const insertedId = await repo.insertClass(db, {
    teacherId: teacher.id,
    teacherName: teacher.name,
    teacherEmail: teacher.email,
    title: body.title,
    description: body.description,
    priceCents: decimalToCents(body.price),
    imageKey,
    category: body.category,
    status: 'pending',
  });
  return { insertedId };
}

/**
 * The text-search expression for what a visitor typed (decision 018): each word as a prefix, and a
 * misspelled one also as its nearest known words. Null when the query has no word at all.
 */
export async function buildSearchExpression(db: Db, q: string): Promise<string | null> {
  const words = parseSearch(q);
  const corrections = await catalogue.findCorrections(db, correctableWords(words), CORRECTIONS_PER_WORD);
  return toTsqueryExpression(words, corrections);
}

/**
 * The catalogue: accepted classes for everyone, admins included; an admin's moderation list asks
 * for a status (or `all`).
 */
export async function listClasses(
  db: Db,
  storage: ImageStorage,
  viewer: Viewer | null,
  query: ClassListQuery,
  /** The clock "upcoming" is measured by (the catalogue's dates and schedule filter, decision 053). */
  now: Date,
  /** Shares counts between the catalogue's pages (plugins/catalogue-cache.ts); else counts each time. */
  totals?: ShortCache<number>,
): Promise<CataloguePage> {
  const status = viewer?.isAdmin && query.status ? (query.status === 'all' ? null : query.status) : 'accepted';
  const q = query.q || undefined;
  const tsquery = q ? await buildSearchExpression(db, q) : undefined;
  // Only separators (say "&&"): there is no word to find.
  if (tsquery === null) return { items: [], total: 0, totalCapped: false };
  const match = scheduleMatchOf(query, now);
  const filter: catalogue.CatalogueFilter = {
    status,
    category: query.category,
    tsquery,
    minPriceCents: query.minPrice === undefined ? undefined : decimalToCents(query.minPrice),
    maxPriceCents: query.maxPrice === undefined ? undefined : decimalToCents(query.maxPrice),
    minRating: query.minRating,
    schedule: match ? { match, now } : undefined,
    sort: query.sort ?? (tsquery ? 'relevance' : 'newest'),
    ...limitOffsetOf(query),
  };
  const totalKey = JSON.stringify([
    status,
    filter.category ?? null,
    tsquery ?? null,
    filter.minPriceCents ?? null,
    filter.maxPriceCents ?? null,
    filter.minRating ?? null,
  ]);
  // A search counts its matches only up to one past the cap: more than that reads as "1,000+".
  let rows: repo.ClassRow[];
  let counted: number;
  if (match) {
    // A schedule filter (decision 053) finds the classes it fits first, up to one past the cap:
    // up to the cap, the page is ordered from exactly those; past it, a walk in the page's order
    // finds the page, and the total reads "1,000+" as a search's does.
    const fits = await catalogue.scheduleFitsAtMost(db, filter, SEARCH_TOTAL_CAP + 1);
    counted = fits.length;
    if (counted === 0) return { items: [], total: 0, totalCapped: false };
    const narrowed = counted <= SEARCH_TOTAL_CAP ? { ...filter, schedule: undefined, classIds: fits } : filter;
    rows =
      tsquery && filter.sort === 'relevance'
        ? (await catalogue.searchPage(db, narrowed, SEARCH_TOTAL_CAP)).rows
        : await catalogue.catalogueQuery(db, narrowed);
  } else if (tsquery && filter.sort === 'relevance') {
    // Its first read counts the matches and, when there are at most the cap, orders the page too.
    ({ rows, matches: counted } = await catalogue.searchPage(db, filter, SEARCH_TOTAL_CAP));
  } else {
    const countTotal = () =>
      tsquery ? catalogue.countAtMost(db, filter, SEARCH_TOTAL_CAP + 1) : catalogue.countCatalogue(db, filter);
    [rows, counted] = await Promise.all([
      catalogue.catalogueQuery(db, filter),
      totals ? totals.get(totalKey, countTotal) : countTotal(),
    ]);
  }
  const totalCapped = counted > SEARCH_TOTAL_CAP;
  const nextStarts = await nextStartsOfClasses(
    db,
    rows.map((row) => row.id),
    now,
  );
  return {
    items: rows.map((row) => ({
      ...toClassItem(row, storage),
      nextSessionAt: nextStarts.get(row.id)?.toISOString() ?? null,
    })),
    total: totalCapped ? SEARCH_TOTAL_CAP : counted,
    totalCapped,
  };
}

/**
 * A page of the catalogue. A search's total stops at SEARCH_TOTAL_CAP: past it, `totalCapped` says
 * that at least that many match (decision 018).
 */
export interface CataloguePage {
  items: ClassItem[];
  total: number;
  totalCapped: boolean;
}

/** Every category with its number of accepted classes (0 for none), in the order of CATEGORIES. */
export async function countClassesByCategory(db: Db): Promise<CategoryCount[]> {
  const totals = new Map((await repo.countAcceptedByCategory(db)).map((row) => [row.category, row.total]));
  return CATEGORIES.map((category) => ({ category, total: totals.get(category) ?? 0 }));
}

/** What the search box suggests while one types: the accepted classes the search ranks first. */
export async function suggestClasses(db: Db, query: ClassSuggestionsQuery): Promise<ClassSuggestion[]> {
  const tsquery = await buildSearchExpression(db, query.q);
  if (!tsquery) return [];
  const rows = await catalogue.suggestClasses(db, tsquery, query.limit);
  return rows.map((row) => ({ _id: row.id, title: row.title, name: row.teacherName, category: row.category }));
}

/** Accepted classes are public; any other status only to its teacher and admins (else 404). */
export async function getClass(db: Db, storage: ImageStorage, viewer: Viewer | null, id: string): Promise<ClassItem> {
  const row = await repo.findClassById(db, id);
  if (!row) throw notFound('Class');
  if (row.status !== 'accepted' && !isOwner(viewer, row) && !viewer?.isAdmin) throw notFound('Class');
  return toClassItem(row, storage);
}

export async function listTeacherClasses(
  db: Db,
  storage: ImageStorage,
  email: string,
  query: TeacherClassesQuery,
): Promise<{ items: ClassItem[]; total: number }> {
  const teacherId = await findUserIdByEmail(db, email);
  if (!teacherId) return { items: [], total: 0 };
  const { rows, total } = await repo.listClassesOfTeacher(db, teacherId, {
    ...limitOffsetOf(query),
  });
  // Its teacher sees which classes have changes waiting for review (or turned down).
  const current = await revisions.findCurrentRevisions(
    db,
    rows.map((row) => row.id),
  );
  const items = rows.map((row) => {
    const revision = current.get(row.id);
    return {
      ...toClassItem(row, storage),
      revision: revision
        ? { status: revision.status as 'pending' | 'rejected', rejectionReason: revision.rejectionReason }
        : null,
    };
  });
  return { items, total };
}

/**
 * Its teacher edits a class (spec §7, DESIGN §1.7): only the fields given change, the image stays
 * unless a new one is given, and a rejected class is resubmitted (back to pending). An accepted
 * class is live: its edit becomes a revision for an admin to review (DESIGN §4), and the class
 * stays on sale as approved until then.
 */
export async function updateClass(
  db: Db,
  storage: ImageStorage,
  teacher: Viewer,
  id: string,
  body: UpdateClassBody,
  now: Date,
): Promise<ClassModifiedResponse> {
  const row = await loadClass(db, id);
  if (!isOwner(teacher, row)) throw forbidden('Only the teacher of this class can edit it');
  if (row.status === 'archived') throw conflict('This class was deleted and can no longer be edited');
  const patch: repo.ClassPatch = {};
  if (body.title !== undefined) patch.title = body.title;
  if (body.description !== undefined) patch.description = body.description;
  if (body.category !== undefined) patch.category = body.category;
  if (body.price !== undefined) patch.priceCents = decimalToCents(body.price);
  if (body.image !== undefined) patch.imageKey = await imageKeyOf(db, storage, body.image);
  if (Object.keys(patch).length === 0) return { modifiedCount: 0, success: true };
  if (row.status === 'accepted') return proposeRevision(db, teacher, id, patch, now);
  const modifiedCount = await repo.updateOwnClass(db, id, teacher.id, patch, now);
  if (modifiedCount === 0) {
    // Accepted between the read and the write: it is live now, so the edit waits for review.
    const fresh = await repo.findClassById(db, id);
    if (fresh?.status === 'accepted') return proposeRevision(db, teacher, id, patch, now);
    throw conflict('This class was deleted and can no longer be edited');
  }
  return { modifiedCount, success: true };
}

/**
 * Its teacher or an admin deletes a class; one with paid enrollments is archived instead
 * (DESIGN §4). An admin deleting someone else's class is audited.
 */
export async function deleteClass(db: Db, viewer: Viewer, id: string, now: Date): Promise<{ deletedCount: number }> {
  const row = await loadClass(db, id);
  const owner = isOwner(viewer, row);
  if (!owner && !viewer.isAdmin) throw forbidden('Only the teacher of this class or an admin can delete it');
  if (row.status === 'archived') return { deletedCount: 0 };
  return db.transaction(async (tx) => {
    // The class is locked first, then its enrollments, so a payment cannot turn one to paid
    // between the check and the delete: archived when any is paid (DESIGN §4), deleted otherwise.
    if (!(await repo.lockClassForRemoval(tx, id))) return { deletedCount: 0 };
    const { anyPaid } = await enrollments.lockEnrollmentsOfClass(tx, id);
    const outcome = anyPaid ? 'archived' : 'deleted';
    if (anyPaid) await repo.archiveClass(tx, id, now);
    else await repo.deleteClass(tx, id);
    // A deleted class takes its revisions with it (cascade); an archived one drops its pending one.
    if (outcome === 'archived') await revisions.deletePendingRevisions(tx, id);
    if (!owner) {
      await recordAudit(tx, viewer, {
        action: 'class.delete',
        targetType: 'class',
        targetId: id,
        targetLabel: row.title,
        details: { archived: outcome === 'archived', teacherEmail: row.teacherEmail },
      });
    }
    return { deletedCount: 1 };
  });
}

/**
 * An admin accepts or rejects a pending class (spec §4); only while pending, audited, and only the
 * version the admin reviewed (decision 027): a teacher's edit since then refuses it (409).
 */
export async function decideClass(
  db: Db,
  admin: Viewer,
  id: string,
  decision:
    { status: 'accepted'; version: string } | { status: 'rejected'; version: string; reason?: string | undefined },
  now: Date,
  publicUrl: string,
  notifications: NotificationPublisher,
): Promise<ClassModifiedResponse> {
  if (!repo.isClassId(id)) throw notFound('Class');
  const reason = decision.status === 'rejected' && decision.reason ? decision.reason : null;
  return db.transaction(async (tx) => {
    // The row lock makes a teacher's edit wait (or this wait for it): the version read is the one decided.
    const reviewed = await revisions.lockClass(tx, id);
    if (reviewed?.status === 'pending' && moderationVersion(reviewed) !== decision.version) {
      throw conflict(VERSION_CHANGED);
    }
    const decided = await repo.decidePendingClass(tx, id, { status: decision.status, rejectionReason: reason, now });
    if (!decided) {
      const existing = await repo.findClassById(tx, id);
      if (!existing) throw notFound('Class');
      throw conflict(`This class is ${existing.status}, not pending`);
    }
    await recordAudit(tx, admin, {
      action: decision.status === 'accepted' ? 'class.approve' : 'class.reject',
      targetType: 'class',
      targetId: decided.id,
      targetLabel: decided.title,
      details: { teacherEmail: decided.teacherEmail, ...(reason ? { reason } : {}) },
    });
    const approved = decision.status === 'accepted';
    await notify(
      tx,
      notifications,
      {
        recipientId: decided.teacherId,
        kind: 'moderation',
        title: `Your class “${decided.title}” ${approved ? 'was approved' : 'was not approved'}`,
        body: approved ? 'It is now in the catalogue.' : (reason ?? 'See the reason on the class page.'),
        link: `/dashboard/my-class/${decided.id}`,
      },
      now,
    );
    if (await wantsNotification(tx, decided.teacherEmail, 'classReviews')) {
      await queueMail(
        tx,
        decided.teacherEmail,
        classDecidedMail({
          publicUrl,
          teacherName: decided.teacherName,
          title: decided.title,
          approved: decision.status === 'accepted',
          reason,
        }),
      );
    }
    return { modifiedCount: 1, success: true as const };
  });
}

/** Monday 00:00 UTC of the week `date` falls in. */
function weekStartUtc(date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

/** Enrollment figures for its teacher or an admin (DESIGN §1.10 /dashboard/my-class/:id). */
export async function getClassStats(db: Db, viewer: Viewer, id: string, now: Date): Promise<ClassStats> {
  const row = await loadClass(db, id);
  if (!isOwner(viewer, row) && !viewer.isAdmin)
    throw forbidden('Only the teacher of this class or an admin can see its figures');
  const first = new Date(weekStartUtc(now).getTime() - (STATS_WEEKS - 1) * 7 * DAY_MS);
  const [totals, weeks, progress] = await Promise.all([
    enrollments.enrollmentTotalsOfClass(db, id),
    enrollments.enrollmentsPerWeekOfClass(db, id, first),
    content.progressSummaryOfClass(db, id, now),
  ]);
  const byWeek = new Map(weeks.map((w) => [w.week, w.n]));
  const perWeek = Array.from({ length: STATS_WEEKS }, (_, i) => {
    const week = new Date(first.getTime() + i * 7 * DAY_MS).toISOString().slice(0, 10);
    return { week, enrollments: byWeek.get(week) ?? 0 };
  });
  return {
    paidStudents: totals.paid,
    revenue: centsToDecimal(totals.revenueCents),
    perWeek,
    progress,
  };
}
