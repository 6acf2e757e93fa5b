import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam, PageQuery } from '@skillhive/shared/contracts/common';
import {
  AdminPayment,
  AdminPaymentQuery,
  CreateRefundResponse,
  MyRefundRequests,
  PendingRefund,
  RefundRequest,
  RefundRequestListQuery,
} from '@skillhive/shared/contracts/refunds';
import { CreateRefundBody, CreateRefundRequestBody, RefundReasonForm } from '@skillhive/shared/rules/refunds';
import { viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import * as requests from './refund-requests.service.ts';
import * as adminViews from './admin-refunds.service.ts';
import * as refunds from './refunds.service.ts';

/** Refunds (DESIGN §4): an admin's refunds and a student's requests, which an admin decides. */
export async function refundsRoutes(app: FastifyInstance, opts: { deps: Omit<refunds.RefundsDeps, 'log'> }) {
  const deps: refunds.RefundsDeps = { ...opts.deps, log: app.log };
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/admin/payments',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['refunds'],
        operationId: 'searchPayments',
        summary:
          'Find payments by the e-mail they were paid with or an exact transaction id, with their lines and refunds, newest first (admins only)',
        querystring: AdminPaymentQuery,
        response: { 200: z.array(AdminPayment) },
      },
    },
    async (request, reply) => replyWithPage(reply, await adminViews.searchPayments(deps.db, request.query)),
  );

  typed.get(
    '/api/admin/refunds/pending',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['refunds'],
        operationId: 'listPendingRefunds',
        summary:
          'Refunds in progress: decided, not yet finished at the gateway; the reconciler completes each by itself (decision 031). Oldest first (admins only)',
        querystring: PageQuery,
        response: { 200: z.array(PendingRefund) },
      },
    },
    async (request, reply) => replyWithPage(reply, await adminViews.listPendingRefunds(deps.db, request.query)),
  );

  typed.post(
    '/api/admin/payments/:id/refunds',
    {
      config: { access: 'admin', errors: [404, 409, 503] },
      schema: {
        tags: ['refunds'],
        operationId: 'refundPayment',
        summary:
          'Refund one enrollment of a payment (`enrollmentId`) or every enrollment still paid, with a reason; the gateway gives back what was paid for each (admins only)',
        description:
          'The enrollments become refunded: the student loses access at once and may buy the class again. 202 when the refund is recorded but the gateway step did not finish: it is in progress (its status `pending`) and completes by itself (decision 031); refunding again resumes it. 404 for an unknown payment or an enrollment not in it; 409 when it is refunded already or nothing is left to refund. Two concurrent calls refund once.',
        params: IdParam,
        body: CreateRefundBody,
        response: {
          200: CreateRefundResponse,
          202: CreateRefundResponse.describe('Recorded; the refund is in progress'),
        },
      },
    },
    async (request, reply) => {
      const { answer, inProgress } = await refunds.refundPayment(
        deps,
        viewerOf(request),
        request.params.id,
        request.body,
      );
      return reply.status(inProgress ? 202 : 200).send(answer);
    },
  );

  typed.get(
    '/api/admin/refund-requests',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['refunds'],
        operationId: 'listRefundRequests',
        summary: "Students' refund requests, newest first, optionally of one status (admins only)",
        querystring: RefundRequestListQuery,
        response: { 200: z.array(RefundRequest) },
      },
    },
    async (request, reply) => replyWithPage(reply, await requests.listRefundRequests(deps.db, request.query)),
  );

  typed.post(
    '/api/admin/refund-requests/:id/approve',
    {
      config: { access: 'admin', errors: [404, 409, 503] },
      schema: {
        tags: ['refunds'],
        operationId: 'approveRefundRequest',
        summary: 'Approve a pending refund request: the enrollment is refunded at once (admins only)',
        description:
          '202 when the approval is recorded but the gateway step did not finish: the refund is in progress and completes by itself (decision 031); approving again resumes it. 409 when the request was declined, or approved and refunded already.',
        params: IdParam,
        response: { 200: RefundRequest, 202: RefundRequest.describe('Approved; the refund is in progress') },
      },
    },
    async (request, reply) => {
      const { request: answer, inProgress } = await requests.approveRefundRequest(
        deps,
        viewerOf(request),
        request.params.id,
      );
      return reply.status(inProgress ? 202 : 200).send(answer);
    },
  );

  typed.post(
    '/api/admin/refund-requests/:id/decline',
    {
      config: { access: 'admin', errors: [404, 409] },
      schema: {
        tags: ['refunds'],
        operationId: 'declineRefundRequest',
        summary: 'Decline a pending refund request, with a reason the student sees (admins only)',
        description: '409 when the request was decided already.',
        params: IdParam,
        body: RefundReasonForm,
        response: { 200: RefundRequest },
      },
    },
    async (request) => requests.declineRefundRequest(deps, viewerOf(request), request.params.id, request.body.reason),
  );

  typed.post(
    '/api/refund-requests',
    {
      config: { access: 'signed-in', owner: 'enrollment-student-or-404', errors: [404, 409] },
      schema: {
        tags: ['refunds'],
        operationId: 'requestRefund',
        summary:
          'Ask for the refund of one of your paid enrollments, with a reason, within REFUND_WINDOW_DAYS of paying (the student of the enrollment)',
        description:
          '404 for an enrollment that is not yours; 409 when it is not paid, refunded already, requested already, or paid too long ago.',
        body: CreateRefundRequestBody,
        response: { 201: RefundRequest },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await requests.requestRefund(deps, viewerOf(request), request.body)),
  );

  typed.get(
    '/api/refund-requests/mine',
    {
      config: { access: 'signed-in', owner: 'own-refund-requests' },
      schema: {
        tags: ['refunds'],
        operationId: 'listMyRefundRequests',
        summary: 'Your refund requests and how many days after paying you may ask (any signed-in user, their own)',
        response: { 200: MyRefundRequests },
      },
    },
    async (request) => requests.listMyRefundRequests(deps, viewerOf(request)),
  );
}
