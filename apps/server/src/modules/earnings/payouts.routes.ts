import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam, PageQuery } from '@skillhive/shared/contracts/common';
import {
  AdminPayout,
  AdminPayoutQuery,
  Dispute,
  DisputeQuery,
  FeeRevenueMonth,
  PayoutBatch,
  PayoutRunResult,
  TeacherFeeRate,
  UpcomingPayouts,
} from '@skillhive/shared/contracts/earnings';
import { SetFeeRateBody } from '@skillhive/shared/rules/earnings';
import { viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import * as admin from './earnings-admin.service.ts';
import type { EarningsDeps } from './earnings.service.ts';

/** The admin's side of money out (decisions 039, 040): payouts, manual batches, fee revenue, disputes, fee rates. */
export async function payoutsRoutes(app: FastifyInstance, opts: { deps: Omit<EarningsDeps, 'log'> }) {
  const deps: EarningsDeps = { ...opts.deps, log: app.log };
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/admin/payouts',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['payouts'],
        operationId: 'listPayouts',
        summary:
          'Payouts, newest first: `past` (paid or reversed), `failed` (retry them), `in_flight`, `manual` (waiting for a bank transfer), or all (admins only)',
        querystring: AdminPayoutQuery,
        response: { 200: z.array(AdminPayout) },
      },
    },
    async (request, reply) => replyWithPage(reply, await admin.listPayouts(deps, request.query)),
  );

  typed.get(
    '/api/admin/payouts/upcoming',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['payouts'],
        operationId: 'listUpcomingPayouts',
        summary:
          'What the next payout run would pay: teachers with an available balance, largest first, and whether through the gateway or by bank transfer (admins only)',
        response: { 200: UpcomingPayouts },
      },
    },
    async () => admin.listUpcoming(deps),
  );

  typed.post(
    '/api/admin/payouts/run',
    {
      config: { access: 'admin', errors: [503] },
      schema: {
        tags: ['payouts'],
        operationId: 'runPayouts',
        summary:
          'Runs payouts now, as the schedule would: every teacher whose available balance reaches PAYOUT_MINIMUM_CENTS is paid through the gateway, or queued for a manual batch (admins only)',
        response: { 200: PayoutRunResult },
      },
    },
    async () => admin.runNow(deps),
  );

  typed.post(
    '/api/admin/payouts/:id/retry',
    {
      config: { access: 'admin', errors: [404, 409, 503] },
      schema: {
        tags: ['payouts'],
        operationId: 'retryPayout',
        summary:
          'Retries a failed payout: a new payout of what the teacher has available now; 409 unless it failed, or when nothing is available (admins only)',
        params: IdParam,
        response: { 200: AdminPayout },
      },
    },
    async (request) => admin.retryPayout(deps, viewerOf(request), request.params.id),
  );

  typed.get(
    '/api/admin/payout-batches',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['payouts'],
        operationId: 'listPayoutBatches',
        summary: 'Manual payout batches, newest first (admins only)',
        querystring: PageQuery,
        response: { 200: z.array(PayoutBatch) },
      },
    },
    async (request, reply) => replyWithPage(reply, await admin.listBatches(deps, request.query)),
  );

  typed.post(
    '/api/admin/payout-batches',
    {
      config: { access: 'admin', errors: [409] },
      schema: {
        tags: ['payouts'],
        operationId: 'createPayoutBatch',
        summary:
          'Gathers every manual payout not in a batch yet into a new batch, to export as CSV for bank transfers; 409 when there is none (admins only)',
        response: { 201: PayoutBatch },
      },
    },
    async (request, reply) => reply.status(201).send(await admin.createBatch(deps, viewerOf(request))),
  );

  typed.get(
    '/api/admin/payout-batches/:id/csv',
    {
      config: { access: 'admin', errors: [404] },
      schema: {
        tags: ['payouts'],
        operationId: 'exportPayoutBatch',
        summary: "A batch's payouts as CSV for bank transfers: teacher, e-mail, amount, reference (admins only)",
        params: IdParam,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const csv = await admin.batchCsv(deps, request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="skillhive-payouts-${request.params.id}.csv"`)
        .send(csv);
    },
  );

  typed.post(
    '/api/admin/payout-batches/:id/mark-paid',
    {
      config: { access: 'admin', errors: [404, 409] },
      schema: {
        tags: ['payouts'],
        operationId: 'markPayoutBatchPaid',
        summary: "Marks a batch's payouts paid once the bank transfers are made; 409 when it was already (admins only)",
        params: IdParam,
        response: { 200: PayoutBatch },
      },
    },
    async (request) => admin.markBatchPaid(deps, viewerOf(request), request.params.id),
  );

  typed.get(
    '/api/admin/earnings/revenue',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['payouts'],
        operationId: 'getFeeRevenue',
        summary:
          "The platform's fee revenue per month (UTC) of payment for the last 12 months, with gross, teachers' shares and claw-backs, in cents (admins only)",
        response: { 200: z.array(FeeRevenueMonth) },
      },
    },
    async () => admin.feeRevenue(deps),
  );

  typed.get(
    '/api/admin/disputes',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['payouts'],
        operationId: 'listDisputes',
        summary:
          'Chargebacks, newest first, optionally of one status: the lines they froze, the evidence deadline and fields as the gateway sent them (admins only)',
        querystring: DisputeQuery,
        response: { 200: z.array(Dispute) },
      },
    },
    async (request, reply) => replyWithPage(reply, await admin.listDisputes(deps, request.query)),
  );

  typed.get(
    '/api/admin/teachers/:id/fee-rate',
    {
      config: { access: 'admin', errors: [404, 409] },
      schema: {
        tags: ['payouts'],
        operationId: 'getTeacherFeeRate',
        summary:
          "A teacher's platform fee: their own rate, or PLATFORM_FEE_PERCENT; 409 for a user who is not a teacher (admins only)",
        params: IdParam,
        response: { 200: TeacherFeeRate },
      },
    },
    async (request) => admin.getFeeRate(deps, request.params.id),
  );

  typed.put(
    '/api/admin/teachers/:id/fee-rate',
    {
      config: { access: 'admin', errors: [404, 409] },
      schema: {
        tags: ['payouts'],
        operationId: 'setTeacherFeeRate',
        summary:
          "Sets a teacher's own platform fee in percent (at most two decimals), or with null the platform's again; it applies to their sales from now on, audited (admins only)",
        params: IdParam,
        body: SetFeeRateBody,
        response: { 200: TeacherFeeRate },
      },
    },
    async (request) => admin.setFeeRate(deps, viewerOf(request), request.params.id, request.body.feePercent),
  );
}
