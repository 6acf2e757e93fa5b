import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CategoryCount,
  ClassItem,
  ClassListQuery,
  ClassModifiedResponse,
  ClassRevision,
  ClassRevisionResponse,
  ClassRevisionsQuery,
  ClassStats,
  ClassSuggestion,
  ClassSuggestionsQuery,
  PublicClass,
  ApproveClassBody,
  RejectClassBody,
  RejectRevisionBody,
  TeacherClassesQuery,
} from '@skillhive/shared/contracts/classes';
import { CreateClassBody, UpdateClassBody } from '@skillhive/shared/rules/class-form';
import { DeletedCountResponse, EmailParam, IdParam, InsertedIdResponse } from '@skillhive/shared/contracts/common';
import { TOTAL_COUNT_CAPPED_HEADER, TOTAL_COUNT_HEADER } from '@skillhive/shared/rules/http';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import type { ImageStorage } from '../uploads/storage.public.ts';
import { getPublicClass } from './class-page.service.ts';
import * as revisions from './class-revisions.service.ts';
import * as service from './classes.service.ts';
import type { NotificationPublisher } from '../notifications/notifications.public.ts';

/** X-Total-Count, and X-Total-Count-Capped when that total is a search's floor ("1,000+", decision 018). */
function totalHeaders(page: service.CataloguePage): Record<string, string> {
  const headers: Record<string, string> = { [TOTAL_COUNT_HEADER]: String(page.total) };
  if (page.totalCapped) headers[TOTAL_COUNT_CAPPED_HEADER] = 'true';
  return headers;
}

/** Classes, their moderation and the catalogue (spec §3, §4, §7; DESIGN §1.7, §4). */
export async function classesRoutes(
  app: FastifyInstance,
  opts: { db: Db; storage: ImageStorage; now: () => Date; publicUrl: string; notifications: NotificationPublisher },
) {
  const { db, storage, now, publicUrl, notifications } = opts;
  const { catalogueCache } = app;
  const CatalogueBody = z.array(ClassItem);
  const SuggestionsBody = z.array(ClassSuggestion);
  const CategoryCountsBody = z.array(CategoryCount);
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/classes',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['classes'],
        operationId: 'createClass',
        summary:
          'Add a class: name and e-mail come from the account, status is pending, the image must be one of our uploads (teachers only)',
        body: CreateClassBody,
        response: { 200: InsertedIdResponse },
      },
    },
    async (request) => service.createClass(db, storage, viewerOf(request), request.body),
  );

  typed.get(
    '/api/classes',
    {
      config: { access: 'public-viewer-aware', list: true, cappedTotal: true },
      schema: {
        tags: ['classes'],
        operationId: 'listClasses',
        summary:
          "The catalogue: accepted classes, searched by prefix and forgiving misspellings (?q=, ranked by relevance unless ?sort= says otherwise), filtered by ?category=, ?minPrice=, ?maxPrice= and ?minRating=, and by schedule in the visitor's zone ?tz= (IANA; UTC when absent): ?startsAfter= (a date), ?days= (mon,…,sun) and ?times= (morning, afternoon, evening) or ?fromHour=&toHour= — a class fits when one of its running sections has every session still to come on those days and hours (decision 053); self-paced classes fit no schedule filter; paginated; each card carries nextSessionAt, the earliest upcoming start; 400 for an unknown zone, date, day, time or hour; admins may ask for another ?status= or `all` (public)",
        querystring: ClassListQuery,
        response: { 200: z.array(ClassItem) },
      },
    },
    async (request, reply) => {
      const viewer = await request.getViewer();
      const { query } = request;
      if (!viewer?.isAdmin || !query.status) {
        // Everyone sees the same accepted classes (admins too, unless they ask for a status): the page
        // is shared (plugins/catalogue-cache.ts).
        const key = JSON.stringify([
          query.category ?? null,
          query.q || null,
          query.sort ?? null,
          query.minPrice ?? null,
          query.maxPrice ?? null,
          query.minRating ?? null,
          query.tz ?? null,
          query.startsAfter ?? null,
          query.days ?? null,
          query.times ?? null,
          query.fromHour ?? null,
          query.toHour ?? null,
          query.page,
          query.limit,
        ]);
        return catalogueCache.sendPage(request, reply, key, async () => {
          const page = await service.listClasses(db, storage, viewer, query, now(), catalogueCache.totals);
          return { body: CatalogueBody.parse(page.items), headers: totalHeaders(page) };
        });
      }
      const page = await service.listClasses(db, storage, viewer, query, now());
      reply.headers(totalHeaders(page));
      return page.items;
    },
  );

  typed.get(
    '/api/classes/suggestions',
    {
      config: { access: 'public' },
      schema: {
        tags: ['classes'],
        operationId: 'suggestClasses',
        summary:
          'Accepted classes the search ranks first for what is typed so far (prefixes and misspellings), for the search box (public)',
        querystring: ClassSuggestionsQuery,
        response: { 200: z.array(ClassSuggestion) },
      },
    },
    async (request, reply) => {
      const { q, limit } = request.query;
      // The same for everyone: shared like the catalogue's pages.
      return catalogueCache.sendPage(
        request,
        reply,
        JSON.stringify(['suggestions', q.toLowerCase(), limit]),
        async () => ({
          body: SuggestionsBody.parse(await service.suggestClasses(db, request.query)),
          headers: {},
        }),
      );
    },
  );

  typed.get(
    '/api/classes/categories',
    {
      config: { access: 'public' },
      schema: {
        tags: ['classes'],
        operationId: 'countClassesByCategory',
        summary: 'Every category with its number of accepted classes, for links that must lead somewhere (public)',
        response: { 200: CategoryCountsBody },
      },
    },
    async (request, reply) =>
      catalogueCache.sendPage(request, reply, JSON.stringify(['categories']), async () => ({
        body: CategoryCountsBody.parse(await service.countClassesByCategory(db)),
        headers: {},
      })),
  );

  typed.get(
    '/api/classes/:id/public',
    {
      config: { access: 'public', owner: 'accepted-class', errors: [404] },
      schema: {
        tags: ['classes'],
        operationId: 'getPublicClass',
        summary:
          "An accepted class's public page: its public fields, rating breakdown, and its teacher's name, photo, short bio and other classes; no e-mail (public)",
        params: IdParam,
        response: { 200: PublicClass },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return catalogueCache.sendPage(request, reply, JSON.stringify(['class-page', id]), async () => ({
        body: PublicClass.parse(await getPublicClass(db, storage, id)),
        headers: {},
      }));
    },
  );

  typed.get(
    '/api/classes/teacher/:email',
    {
      config: { access: 'self-or-admin', owner: 'own-teacher-email', list: true },
      schema: {
        tags: ['classes'],
        operationId: 'listTeacherClasses',
        summary: "A teacher's classes in every status but archived, newest first (that teacher, or an admin)",
        params: EmailParam,
        querystring: TeacherClassesQuery,
        response: { 200: z.array(ClassItem) },
      },
    },
    async (request, reply) =>
      replyWithPage(reply, await service.listTeacherClasses(db, storage, request.params.email, request.query)),
  );

  typed.get(
    '/api/classes/:id',
    {
      config: { access: 'public-viewer-aware', owner: 'accepted-or-teacher-or-admin' },
      schema: {
        tags: ['classes'],
        operationId: 'getClass',
        summary: 'One class: accepted classes to anyone, any status to its teacher and admins (public)',
        params: IdParam,
        response: { 200: ClassItem },
      },
    },
    async (request) => {
      const viewer = await request.getViewer();
      return service.getClass(db, storage, viewer, request.params.id);
    },
  );

  typed.get(
    '/api/classes/:id/stats',
    {
      config: { access: 'signed-in', owner: 'class-teacher-or-admin' },
      schema: {
        tags: ['classes'],
        operationId: 'getClassStats',
        summary:
          'Paid students (refunded ones not counted), what they paid, and paid enrollments per week for the last 12 weeks (its teacher, or an admin)',
        params: IdParam,
        response: { 200: ClassStats },
      },
    },
    async (request) => service.getClassStats(db, viewerOf(request), request.params.id, now()),
  );

  typed.patch(
    '/api/classes/:id',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [409] },
      schema: {
        tags: ['classes'],
        operationId: 'updateClass',
        summary:
          'Edit title, price, description, image or category; a rejected class goes back to pending; an accepted class keeps its approved version on sale and the edit waits for review as a revision (pendingReview: true) (its teacher only)',
        params: IdParam,
        body: UpdateClassBody,
        response: { 200: ClassModifiedResponse },
      },
    },
    async (request) => service.updateClass(db, storage, viewerOf(request), request.params.id, request.body, now()),
  );

  typed.delete(
    '/api/classes/:id',
    {
      config: { access: 'signed-in', owner: 'class-teacher-or-admin', errors: [409] },
      schema: {
        tags: ['classes'],
        operationId: 'deleteClass',
        summary: 'Delete a class; one with paid enrollments is archived instead (its teacher, or an admin)',
        params: IdParam,
        response: { 200: DeletedCountResponse },
      },
    },
    async (request) => service.deleteClass(db, viewerOf(request), request.params.id, now()),
  );

  typed.patch(
    '/api/classes/class-requests/:id/approve',
    {
      config: { access: 'admin', errors: [409] },
      schema: {
        tags: ['classes'],
        operationId: 'approveClass',
        summary:
          'Accept a pending class, as of the version reviewed; 409 when its teacher changed it since (admins only)',
        params: IdParam,
        body: ApproveClassBody,
        response: { 200: ClassModifiedResponse },
      },
    },
    async (request) => {
      const decision = { status: 'accepted' as const, version: request.body.version };
      return service.decideClass(db, viewerOf(request), request.params.id, decision, now(), publicUrl, notifications);
    },
  );

  typed.patch(
    '/api/classes/class-requests/:id/reject',
    {
      config: { access: 'admin', errors: [409] },
      schema: {
        tags: ['classes'],
        operationId: 'rejectClass',
        summary:
          'Reject a pending class, as of the version reviewed, with an optional reason its teacher sees (admins only)',
        params: IdParam,
        body: RejectClassBody,
        response: { 200: ClassModifiedResponse },
      },
    },
    async (request) =>
      service.decideClass(
        db,
        viewerOf(request),
        request.params.id,
        { status: 'rejected', version: request.body.version, reason: request.body.reason },
        now(),
        publicUrl,
        notifications,
      ),
  );

  typed.get(
    '/api/classes/revisions',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['classes'],
        operationId: 'listClassRevisions',
        summary:
          'Edits of accepted classes waiting for review, oldest first, each with the live and the proposed values (admins only)',
        querystring: ClassRevisionsQuery,
        response: { 200: z.array(ClassRevision) },
      },
    },
    async (request, reply) => replyWithPage(reply, await revisions.listPendingRevisions(db, storage, request.query)),
  );

  typed.get(
    '/api/classes/:id/revision',
    {
      config: { access: 'signed-in', owner: 'class-teacher-or-admin' },
      schema: {
        tags: ['classes'],
        operationId: 'getClassRevision',
        summary:
          'The pending revision of a class, else its latest one when rejected (with the reason), else null (its teacher, or an admin)',
        params: IdParam,
        response: { 200: ClassRevisionResponse },
      },
    },
    async (request) => revisions.getCurrentRevision(db, storage, viewerOf(request), request.params.id),
  );

  typed.patch(
    '/api/classes/revisions/:id/approve',
    {
      config: { access: 'admin', errors: [409] },
      schema: {
        tags: ['classes'],
        operationId: 'approveClassRevision',
        summary:
          'Apply a pending revision to its class, as of the version reviewed: the proposed values go on sale (admins only)',
        params: IdParam,
        body: ApproveClassBody,
        response: { 200: ClassModifiedResponse },
      },
    },
    async (request) => {
      const decision = { status: 'approved' as const, version: request.body.version };
      return revisions.decideRevision(
        db,
        viewerOf(request),
        request.params.id,
        decision,
        now(),
        publicUrl,
        notifications,
      );
    },
  );

  typed.patch(
    '/api/classes/revisions/:id/reject',
    {
      config: { access: 'admin', errors: [409] },
      schema: {
        tags: ['classes'],
        operationId: 'rejectClassRevision',
        summary:
          'Turn down a pending revision, as of the version reviewed, with an optional reason its teacher sees; the class stays as approved (admins only)',
        params: IdParam,
        body: RejectRevisionBody,
        response: { 200: ClassModifiedResponse },
      },
    },
    async (request) =>
      revisions.decideRevision(
        db,
        viewerOf(request),
        request.params.id,
        { status: 'rejected', version: request.body.version, reason: request.body.reason },
        now(),
        publicUrl,
        notifications,
      ),
  );
}
