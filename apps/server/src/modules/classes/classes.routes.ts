import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ClassItem,
  ClassListQuery,
  ClassModifiedResponse,
  ClassRevision,
  ClassRevisionResponse,
  ClassRevisionsQuery,
  ClassStats,
  CreateClassBody,
  RejectClassBody,
  RejectRevisionBody,
  TeacherClassesQuery,
  UpdateClassBody,
} from '@skillhive/shared/classes';
import {
  DeletedCountResponse,
  EmailParam,
  IdParam,
  InsertedIdResponse,
  TOTAL_COUNT_HEADER,
} from '@skillhive/shared/common';
import type { Db } from '../../db/client.ts';
import { requireAdmin, requireSelfOrAdmin, requireTeacher, requireViewer } from '../../lib/authorize.ts';
import type { ImageStorage } from '../uploads/storage.ts';
import * as revisions from './class-revisions.service.ts';
import * as service from './classes.service.ts';

/** A shared catalogue page: its JSON, and the same compressed once per encoding asked for. */
interface SharedPage {
  body: Buffer;
  total: number;
  encoded: Map<'br' | 'gzip', Buffer>;
}

/** Brotli, else gzip, from Accept-Encoding; null leaves it to the compression plugin as usual. */
function sharedPageEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = acceptEncoding
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => !/;\s*q=0(\.0*)?$/.test(part))
    .map((part) => part.split(';')[0]!.trim());
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

/**
 * The page compressed like the compression plugin would (same brotli quality, gzip default,
 * same 1 KiB threshold), but once per page instead of once per response: per-response brotli
 * cut cached pages from ~48 000 to ~10 000 req/s (bench/, BENCHMARKS.md).
 */
function encodedPage(page: SharedPage, encoding: 'br' | 'gzip'): Buffer {
  let bytes = page.encoded.get(encoding);
  if (!bytes) {
    bytes =
      encoding === 'br'
        ? brotliCompressSync(page.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } })
        : gzipSync(page.body);
    page.encoded.set(encoding, bytes);
  }
  return bytes;
}

/** Classes, their moderation and the catalogue (spec §3, §4, §7; DESIGN §1.7, §4). */
export async function classesRoutes(
  app: FastifyInstance,
  opts: { db: Db; storage: ImageStorage; now: () => Date; publicUrl: string; catalogueCacheMs?: number },
) {
  const { db, storage, now, publicUrl } = opts;
  const totals = service.createShortCache<number>(opts.catalogueCacheMs ?? 0);
  const publicPages = service.createShortCache<SharedPage>(opts.catalogueCacheMs ?? 0);
  const CatalogueBody = z.array(ClassItem);
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/classes',
    {
      schema: {
        tags: ['classes'],
        operationId: 'createClass',
        summary:
          'Add a class: name and e-mail come from the account, status is pending, the image must be one of our uploads (teachers only)',
        body: CreateClassBody,
        response: { 200: InsertedIdResponse },
      },
    },
    async (request) => {
      const teacher = await requireTeacher(request);
      return service.createClass(db, storage, teacher, request.body);
    },
  );

  typed.get(
    '/api/classes',
    {
      schema: {
        tags: ['classes'],
        operationId: 'listClasses',
        summary:
          'The catalogue: accepted classes, searchable (?q=), filterable (?category=), sortable (?sort=), paginated; admins may filter by ?status= (public)',
        querystring: ClassListQuery,
        response: { 200: z.array(ClassItem) },
      },
    },
    async (request, reply) => {
      const viewer = await request.getViewer();
      if (publicPages.enabled && !viewer?.isAdmin) {
        // Everyone but admins sees the same accepted classes: the serialized page is shared.
        const query = request.query;
        const key = JSON.stringify([query.category ?? null, query.q || null, query.sort, query.page, query.limit]);
        const page = await publicPages.get(key, async () => {
          const { items, total } = await service.listClasses(db, storage, viewer, query, totals);
          return { body: Buffer.from(JSON.stringify(CatalogueBody.parse(items))), total, encoded: new Map() };
        });
        // Bytes are sent as they are: serialized once above, compressed once per encoding.
        const out = (reply as FastifyReply)
          .header(TOTAL_COUNT_HEADER, String(page.total))
          .type('application/json; charset=utf-8');
        const encoding = page.body.length >= 1024 ? sharedPageEncoding(request.headers['accept-encoding']) : null;
        if (!encoding) return out.send(page.body);
        return out
          .header('content-encoding', encoding)
          .header('vary', 'accept-encoding')
          .send(encodedPage(page, encoding));
      }
      const { items, total } = await service.listClasses(db, storage, viewer, request.query, totals);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return items;
    },
  );

  typed.get(
    '/api/classes/teacher/:email',
    {
      schema: {
        tags: ['classes'],
        operationId: 'listTeacherClasses',
        summary: "A teacher's classes in every status but archived, newest first (that teacher, or an admin)",
        params: EmailParam,
        querystring: TeacherClassesQuery,
        response: { 200: z.array(ClassItem) },
      },
    },
    async (request, reply) => {
      await requireSelfOrAdmin(request, request.params.email);
      const { items, total } = await service.listTeacherClasses(db, storage, request.params.email, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return items;
    },
  );

  typed.get(
    '/api/classes/:id',
    {
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
      schema: {
        tags: ['classes'],
        operationId: 'getClassStats',
        summary:
          'Enrolled and paid students, revenue and enrolments per week for the last 12 weeks (its teacher, or an admin)',
        params: IdParam,
        response: { 200: ClassStats },
      },
    },
    async (request) => {
      const viewer = await requireViewer(request);
      return service.getClassStats(db, viewer, request.params.id, now());
    },
  );

  typed.patch(
    '/api/classes/:id',
    {
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
    async (request) => {
      const teacher = await requireTeacher(request);
      return service.updateClass(db, storage, teacher, request.params.id, request.body, now());
    },
  );

  typed.delete(
    '/api/classes/:id',
    {
      schema: {
        tags: ['classes'],
        operationId: 'deleteClass',
        summary: 'Delete a class; one with paid enrolments is archived instead (its teacher, or an admin)',
        params: IdParam,
        response: { 200: DeletedCountResponse },
      },
    },
    async (request) => {
      const viewer = await requireViewer(request);
      return service.deleteClass(db, viewer, request.params.id, now());
    },
  );

  typed.patch(
    '/api/classes/class-requests/:id/approve',
    {
      schema: {
        tags: ['classes'],
        operationId: 'approveClass',
        summary: 'Accept a pending class (admins only)',
        params: IdParam,
        response: { 200: ClassModifiedResponse },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return service.decideClass(db, admin, request.params.id, { status: 'accepted' }, now(), publicUrl);
    },
  );

  typed.patch(
    '/api/classes/class-requests/:id/reject',
    {
      schema: {
        tags: ['classes'],
        operationId: 'rejectClass',
        summary: 'Reject a pending class, with an optional reason its teacher sees (admins only)',
        params: IdParam,
        body: RejectClassBody,
        response: { 200: ClassModifiedResponse },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return service.decideClass(
        db,
        admin,
        request.params.id,
        { status: 'rejected', reason: request.body?.reason },
        now(),
        publicUrl,
      );
    },
  );

  typed.get(
    '/api/classes/revisions',
    {
      schema: {
        tags: ['classes'],
        operationId: 'listClassRevisions',
        summary:
          'Edits of accepted classes waiting for review, oldest first, each with the live and the proposed values (admins only)',
        querystring: ClassRevisionsQuery,
        response: { 200: z.array(ClassRevision) },
      },
    },
    async (request, reply) => {
      await requireAdmin(request);
      const { items, total } = await revisions.listPendingRevisions(db, storage, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return items;
    },
  );

  typed.get(
    '/api/classes/:id/revision',
    {
      schema: {
        tags: ['classes'],
        operationId: 'getClassRevision',
        summary:
          'The pending revision of a class, else its latest one when rejected (with the reason), else null (its teacher, or an admin)',
        params: IdParam,
        response: { 200: ClassRevisionResponse },
      },
    },
    async (request) => {
      const viewer = await requireViewer(request);
      return revisions.getCurrentRevision(db, storage, viewer, request.params.id);
    },
  );

  typed.patch(
    '/api/classes/revisions/:id/approve',
    {
      schema: {
        tags: ['classes'],
        operationId: 'approveClassRevision',
        summary: 'Apply a pending revision to its class: the proposed values go on sale (admins only)',
        params: IdParam,
        response: { 200: ClassModifiedResponse },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return revisions.decideRevision(db, admin, request.params.id, { status: 'approved' }, now(), publicUrl);
    },
  );

  typed.patch(
    '/api/classes/revisions/:id/reject',
    {
      schema: {
        tags: ['classes'],
        operationId: 'rejectClassRevision',
        summary:
          'Turn down a pending revision, with an optional reason its teacher sees; the class stays as approved (admins only)',
        params: IdParam,
        body: RejectRevisionBody,
        response: { 200: ClassModifiedResponse },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return revisions.decideRevision(
        db,
        admin,
        request.params.id,
        { status: 'rejected', reason: request.body?.reason },
        now(),
        publicUrl,
      );
    },
  );
}
