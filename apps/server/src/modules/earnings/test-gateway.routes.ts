import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '@skillhive/shared/contracts/common';
import { CloseTestDisputeBody, Dispute, RaiseTestDisputeBody } from '@skillhive/shared/contracts/earnings';
import { EARNINGS_MESSAGES } from '@skillhive/shared/rules/earnings';
import { AppError, ErrorCode, conflict, notFound } from '../../lib/app-error.ts';
import type { TestGateway } from '../gateways/gateway.public.ts';
import { recordDispute } from './disputes.ts';
import * as disputeRepo from './disputes.repository.ts';
import * as repo from './earnings.repository.ts';
import { toDispute } from './earnings-admin.service.ts';
import { type EarningsDeps, refreshAccount } from './earnings.service.ts';

/**
 * The built-in test gateway's side of money out (decision 040), registered only when it takes the
 * payments: its onboarding page (as it simulates the card form) and the chargebacks a test or an
 * admin raises and settles, which go through the same handler as Stripe's dispute events.
 */
export async function testGatewayPayoutRoutes(
  app: FastifyInstance,
  opts: { deps: Omit<EarningsDeps, 'log' | 'gateway'> & { gateway: TestGateway } },
) {
  const deps = { ...opts.deps, log: app.log };
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const base = deps.publicUrl.replace(/\/$/, '');

  typed.post(
    '/api/admin/test-gateway/disputes',
    {
      config: { access: 'admin', owner: 'test-gateway-only', errors: [404] },
      schema: {
        tags: ['payouts'],
        operationId: 'raiseTestDispute',
        summary:
          "Raises a chargeback on a payment's lines at the built-in test gateway, handled as Stripe's charge.dispute.created: the lines' shares freeze (admins only, test gateway only)",
        body: RaiseTestDisputeBody,
        response: { 201: Dispute },
      },
    },
    async (request, reply) => {
      const lines = await repo.listLinesOfPaymentTx(deps.db, request.body.transactionId);
      if (lines.length === 0) throw new AppError(ErrorCode.NOT_FOUND, EARNINGS_MESSAGES.paymentNotFound);
      const wanted = request.body.enrollmentIds;
      const chosen = wanted ? lines.filter((l) => wanted.includes(l.enrollmentId)) : lines.filter((l) => !l.refundedAt);
      if (chosen.length === 0 || (wanted && chosen.length !== new Set(wanted).size)) throw notFound('Enrollment');
      const raised = await deps.gateway.raiseDispute({
        intentId: request.body.transactionId,
        amountCents: chosen.reduce((sum, l) => sum + l.grossCents, 0),
        reason: request.body.reason,
        metadata: { enrollment_ids: chosen.map((l) => l.enrollmentId).join(',') },
      });
      const row = await recordDispute(deps, raised.id);
      if (!row) throw notFound('Dispute');
      return reply.status(201).send(await toDispute(deps.db, row));
    },
  );

  typed.post(
    '/api/admin/test-gateway/disputes/:id/close',
    {
      config: { access: 'admin', owner: 'test-gateway-only', errors: [404, 409] },
      schema: {
        tags: ['payouts'],
        operationId: 'closeTestDispute',
        summary:
          "Closes a test gateway chargeback as the bank decided, handled as Stripe's charge.dispute.closed: lost refunds the lines and claws back their shares, won releases them (admins only, test gateway only)",
        params: IdParam,
        body: CloseTestDisputeBody,
        response: { 200: Dispute },
      },
    },
    async (request) => {
      const found = z.uuid().safeParse(request.params.id).success
        ? await disputeRepo.findDispute(deps.db, request.params.id)
        : null;
      if (!found) throw notFound('Dispute');
      if (found.status !== 'open') throw conflict(EARNINGS_MESSAGES.disputeClosed);
      await deps.gateway.closeDispute(found.gatewayDisputeId, request.body.outcome);
      const row = await recordDispute(deps, found.gatewayDisputeId);
      return toDispute(deps.db, row ?? found);
    },
  );

  const AccountParam = z.object({ accountId: z.string().regex(/^acct_test_[\w-]{1,64}$/) });

  typed.get(
    '/test-gateway/connect/:accountId',
    {
      config: { access: 'public', owner: 'test-gateway-account', errors: [404] },
      schema: {
        tags: ['payouts'],
        operationId: 'showTestConnectOnboarding',
        summary:
          "The built-in test gateway's onboarding page for a connected account (HTML), as Stripe's hosted onboarding would be: one button enables payouts",
        params: AccountParam,
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const account = await deps.gateway.retrieveAccount(request.params.accountId);
      if (!account) throw notFound('Account');
      const action = `/test-gateway/connect/${encodeURIComponent(account.id)}`;
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Test payouts onboarding</title></head><body><main><h1>Test payouts onboarding</h1><p>This is SkillHive's built-in test gateway. No real account is created and no money moves.</p><p>Account <code>${account.id}</code>: payouts ${account.payoutsEnabled ? 'enabled' : 'not enabled yet'}.</p><form method="post" action="${action}"><button type="submit">Complete onboarding</button></form></main></body></html>`;
      return reply.type('text/html; charset=utf-8').send(html);
    },
  );

  typed.post(
    '/test-gateway/connect/:accountId',
    {
      config: { access: 'public', owner: 'test-gateway-account', errors: [404] },
      schema: {
        tags: ['payouts'],
        operationId: 'completeTestConnectOnboarding',
        summary:
          "Completes the test gateway's onboarding of a connected account (payouts enabled), then 303 back to the teacher's return address",
        params: AccountParam,
      },
    },
    async (request, reply) => {
      const account = await deps.gateway.completeOnboarding(request.params.accountId);
      if (!account) throw notFound('Account');
      // As Stripe's account.updated would: the account is read again from the gateway.
      await refreshAccount(deps, account.id);
      return reply.redirect(`${base}/api/teachers/me/connect/return`, 303);
    },
  );
}
