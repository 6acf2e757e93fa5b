import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ConnectOnboardingResponse,
  EarningLine,
  EarningLinesQuery,
  EarningsSummary,
  Payout,
  StatementQuery,
} from '@skillhive/shared/contracts/earnings';
import { PageQuery } from '@skillhive/shared/contracts/common';
import { EARNINGS_PAGE_PATH } from '@skillhive/shared/rules/earnings';
import { viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import * as earnings from './earnings.service.ts';

/** The teacher's side of money out (decisions 039, 040): balances, ledger lines, payouts, statements, Connect. */
export async function earningsRoutes(app: FastifyInstance, opts: { deps: Omit<earnings.EarningsDeps, 'log'> }) {
  const deps: earnings.EarningsDeps = { ...opts.deps, log: app.log };
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const base = deps.publicUrl.replace(/\/$/, '');

  typed.get(
    '/api/teachers/me/earnings',
    {
      config: { access: 'teacher', owner: 'own-earnings' },
      schema: {
        tags: ['earnings'],
        operationId: 'getMyEarnings',
        summary:
          "The caller's balances in integer cents — pending (refundable still, or sessions not held yet), available, frozen by a dispute, paid — the debt a refund after payout left, the next payout date and the payout account's status (teachers only, their own)",
        response: { 200: EarningsSummary },
      },
    },
    async (request) => earnings.getSummary(deps, viewerOf(request)),
  );

  typed.get(
    '/api/teachers/me/earnings/lines',
    {
      config: { access: 'teacher', owner: 'own-earnings', list: true },
      schema: {
        tags: ['earnings'],
        operationId: 'listMyEarningLines',
        summary:
          "The caller's ledger: each paid line of their classes with its class, the student's initials, gross, fee and share in cents and its state, newest first; `month` (YYYY-MM, UTC) limits it to lines paid that month (teachers only, their own)",
        querystring: EarningLinesQuery,
        response: { 200: z.array(EarningLine) },
      },
    },
    async (request, reply) => replyWithPage(reply, await earnings.listLines(deps, viewerOf(request), request.query)),
  );

  typed.get(
    '/api/teachers/me/earnings/statement',
    {
      config: { access: 'teacher', owner: 'own-earnings' },
      schema: {
        tags: ['earnings'],
        operationId: 'getMyEarningsStatement',
        summary:
          "The caller's statement of one month (YYYY-MM, UTC) as CSV: every line paid that month with its split and state, and the totals (teachers only, their own)",
        querystring: StatementQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const csv = await earnings.statementCsv(deps, viewerOf(request), request.query.month);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="skillhive-statement-${request.query.month}.csv"`)
        .send(csv);
    },
  );

  typed.get(
    '/api/teachers/me/payouts',
    {
      config: { access: 'teacher', owner: 'own-earnings', list: true },
      schema: {
        tags: ['earnings'],
        operationId: 'listMyPayouts',
        summary: "The caller's payouts, newest first, with their status (teachers only, their own)",
        querystring: PageQuery,
        response: { 200: z.array(Payout) },
      },
    },
    async (request, reply) =>
      replyWithPage(reply, await earnings.listMyPayouts(deps, viewerOf(request), request.query)),
  );

  typed.post(
    '/api/teachers/me/connect',
    {
      config: { access: 'teacher', owner: 'own-earnings', errors: [409, 503] },
      schema: {
        tags: ['earnings'],
        operationId: 'startConnectOnboarding',
        summary:
          "Starts or resumes the caller's payout account onboarding at the payment gateway (Stripe Connect Express, or the built-in test gateway's page) and answers where to send them (teachers only, their own)",
        response: { 200: ConnectOnboardingResponse },
      },
    },
    async (request) => earnings.startOnboarding(deps, viewerOf(request)),
  );

  typed.get(
    '/api/teachers/me/connect/return',
    {
      config: { access: 'teacher', owner: 'own-earnings', errors: [503] },
      schema: {
        tags: ['earnings'],
        operationId: 'returnFromConnectOnboarding',
        summary:
          "Where the gateway's onboarding sends the teacher back: the account is read again from the gateway, then 303 to the Earnings page (teachers only, their own)",
      },
    },
    async (request, reply) => {
      await earnings.refreshMyAccount(deps, viewerOf(request));
      return reply.redirect(`${base}${EARNINGS_PAGE_PATH}?connect=return`, 303);
    },
  );

  typed.get(
    '/api/teachers/me/connect/refresh',
    {
      config: { access: 'teacher', owner: 'own-earnings', errors: [503] },
      schema: {
        tags: ['earnings'],
        operationId: 'refreshConnectOnboarding',
        summary:
          'Where the gateway sends a teacher whose onboarding link expired: 303 to a fresh link (teachers only, their own)',
      },
    },
    async (request, reply) => {
      const { url } = await earnings.startOnboarding(deps, viewerOf(request));
      return reply.redirect(url, 303);
    },
  );
}
