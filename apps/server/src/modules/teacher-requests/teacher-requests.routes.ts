import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IdParam,
  InsertedIdResponse,
  ModifiedCountResponse,
  SuccessResponse,
} from '@skillhive/shared/contracts/common';
import {
  MyTeacherRequestResponse,
  TeacherRequest,
  RejectTeacherRequestBody,
  TeacherRequestListQuery,
} from '@skillhive/shared/contracts/teacher-requests';
import { CreateTeacherRequestBody } from '@skillhive/shared/rules/teach-form';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import type { NotificationPublisher } from '../notifications/notifications.public.ts';
import * as service from './teacher-requests.service.ts';

/** Teacher applications (spec §3, §4, §7; DESIGN §1.6). */
export async function teacherRequestsRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; publicUrl: string; notifications: NotificationPublisher },
) {
  const { db, now, publicUrl, notifications } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/teachers/teacher-requests',
    {
      config: { access: 'verified', owner: 'not-a-teacher', errors: [403, 409] },
      schema: {
        tags: ['teacher-requests'],
        operationId: 'applyToTeach',
        summary:
          'Apply to teach: name, e-mail and image come from the account, status is pending; one pending request at a time, not for teachers (any signed-in user with a verified e-mail address)',
        body: CreateTeacherRequestBody,
        response: { 200: InsertedIdResponse },
      },
    },
    async (request) => service.applyToTeach(db, viewerOf(request), request.body),
  );

  typed.get(
    '/api/teachers/teacher-requests',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['teacher-requests'],
        operationId: 'listTeacherRequests',
        summary:
          'Teacher requests, newest first, optionally filtered by ?status= and searched by ?q= on name, e-mail or title (admins only)',
        querystring: TeacherRequestListQuery,
        response: { 200: z.array(TeacherRequest) },
      },
    },
    async (request, reply) => replyWithPage(reply, await service.listRequests(db, request.query)),
  );

  typed.get(
    '/api/teachers/teacher-requests/mine',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['teacher-requests'],
        operationId: 'getMyTeacherRequest',
        summary: "The caller's latest teacher request, or null (any signed-in user)",
        response: { 200: MyTeacherRequestResponse },
      },
    },
    async (request) => service.getMyLatestRequest(db, viewerOf(request)),
  );

  typed.patch(
    '/api/teachers/teacher-requests/:id/approve',
    {
      config: { access: 'admin', errors: [409] },
      schema: {
        tags: ['teacher-requests'],
        operationId: 'approveTeacherRequest',
        summary: 'Approve a pending teacher request; the applicant becomes a teacher, admin untouched (admins only)',
        params: IdParam,
        response: { 200: ModifiedCountResponse },
      },
    },
    async (request) =>
      service.approveRequest(db, viewerOf(request), request.params.id, now(), publicUrl, notifications),
  );

  typed.patch(
    '/api/teachers/teacher-requests/:id/reject',
    {
      config: { access: 'admin', errors: [409] },
      schema: {
        tags: ['teacher-requests'],
        operationId: 'rejectTeacherRequest',
        summary:
          'Reject a pending teacher request, with an optional reason e-mailed to the applicant, who may apply again (admins only)',
        params: IdParam,
        // Without a body Fastify hands the validator null: the reason is optional.
        body: RejectTeacherRequestBody.nullish(),
        response: { 200: SuccessResponse },
      },
    },
    async (request) =>
      service.rejectRequest(
        db,
        viewerOf(request),
        request.params.id,
        now(),
        publicUrl,
        notifications,
        request.body?.reason,
      ),
  );
}
