import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam, ModifiedCountResponse } from '@skillhive/shared/contracts/common';
import { AdminReport, AdminReportListQuery, DecideReportResponse } from '@skillhive/shared/contracts/moderation';
import { CreateReportBody, DecideReportBody, SuspendUserBody } from '@skillhive/shared/rules/report-form';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import type { Limiter } from '../../lib/rate-limit.ts';
import type { NotificationPublisher } from '../notifications/notifications.public.ts';
import * as moderation from './moderation.service.ts';

/** Reports and suspensions (decision 043). */
export async function moderationRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; publicUrl: string; reportsPerUser: Limiter; notifications: NotificationPublisher },
) {
  const { db } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  // Hidden content and a suspended teacher's classes leave this instance's shared pages at once.
  const afterDecision = (decision: moderation.Decision) => {
    if (decision.changesPublicLists) app.catalogueCache.invalidate();
    return { modifiedCount: decision.modifiedCount };
  };

  typed.post(
    '/api/reports',
    {
      config: { access: 'signed-in', owner: 'not-own-target', errors: [404, 409, 429] },
      schema: {
        tags: ['moderation'],
        operationId: 'createReport',
        summary:
          'Report a class, a review or a user to the admins, with a reason (any signed-in user, not about themself)',
        description:
          '201 with the report id. 404 when there is no such public class, visible review or user; 409 for your own content or yourself, or when your report of it is still open; 429 past the hourly limit.',
        body: CreateReportBody,
        response: { 201: z.object({ insertedId: z.string() }) },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      await opts.reportsPerUser.consume(viewer.id);
      return reply.status(201).send(await moderation.createReport(db, viewer, request.body));
    },
  );

  typed.get(
    '/api/admin/reports',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['moderation'],
        operationId: 'listReports',
        summary:
          'The report queue: ?status=open oldest first; without it, open ones first then the newest (admins only)',
        querystring: AdminReportListQuery,
        response: { 200: z.array(AdminReport) },
      },
    },
    async (request, reply) => replyWithPage(reply, await moderation.listReports(db, request.query)),
  );

  typed.post(
    '/api/admin/reports/:id/decision',
    {
      config: { access: 'admin', errors: [404, 409] },
      schema: {
        tags: ['moderation'],
        operationId: 'decideReport',
        summary:
          'Decide a report: dismiss, hide the class or review, warn its owner, or suspend them; every open report of the same target is closed with it (admins only)',
        description:
          'modifiedCount is the number of reports closed. 409 when the report was already decided, for hiding a user, or for suspending an admin.',
        params: IdParam,
        body: DecideReportBody,
        response: { 200: DecideReportResponse },
      },
    },
    async (request) =>
      afterDecision(
        await moderation.decideReport(db, viewerOf(request), request.params.id, request.body, {
          now: opts.now(),
          publicUrl: opts.publicUrl,
          notifications: opts.notifications,
        }),
      ),
  );

  typed.post(
    '/api/admin/users/:id/suspension',
    {
      config: { access: 'admin', errors: [404, 409] },
      schema: {
        tags: ['moderation'],
        operationId: 'suspendUser',
        summary:
          'Suspend an account: signed out everywhere, sign-in and tokens refused, classes and reviews hidden, financial records kept (admins only; not an admin)',
        params: IdParam,
        body: SuspendUserBody,
        response: { 200: ModifiedCountResponse },
      },
    },
    async (request) =>
      afterDecision(
        await moderation.suspendUser(
          db,
          viewerOf(request),
          request.params.id,
          request.body,
          opts.now(),
          opts.publicUrl,
        ),
      ),
  );

  typed.delete(
    '/api/admin/users/:id/suspension',
    {
      config: { access: 'admin', errors: [404, 409] },
      schema: {
        tags: ['moderation'],
        operationId: 'reinstateUser',
        summary:
          'Lift a suspension: the classes and reviews it hid come back; what an admin hid on its own stays hidden (admins only)',
        params: IdParam,
        response: { 200: ModifiedCountResponse },
      },
    },
    async (request) =>
      afterDecision(await moderation.reinstateUser(db, viewerOf(request), request.params.id, opts.now())),
  );
}
