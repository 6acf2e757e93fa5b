import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '@skillhive/shared/contracts/common';
import { PaymentHistoryEntry, PaymentHistoryQuery, PaymentReceipt } from '@skillhive/shared/contracts/payments';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import * as history from './payment-history.service.ts';

/** A signed-in person's own payments and receipts. */
export async function paymentHistoryRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/payments/me',
    {
      config: { access: 'signed-in', owner: 'own-payments', list: true },
      schema: {
        tags: ['payments'],
        operationId: 'listMyPayments',
        summary:
          "The caller's own payments, newest first, with the classes and amounts paid, refunds and transaction ids (any signed-in user, their own payments only)",
        description: 'Money in integer cents. An admin gets their own payments here too, never anyone else’s.',
        querystring: PaymentHistoryQuery,
        response: { 200: z.array(PaymentHistoryEntry) },
      },
    },
    async (request, reply) => replyWithPage(reply, await history.listMyPayments(db, viewerOf(request), request.query)),
  );

  typed.get(
    '/api/payments/me/:id',
    {
      config: { access: 'signed-in', owner: 'own-payment', errors: [404] },
      schema: {
        tags: ['payments'],
        operationId: 'getMyReceipt',
        summary:
          "One of the caller's own payments as a receipt: seller, buyer, classes, total, method, transaction id (any signed-in user, their own payments only; another's is a 404)",
        description: 'Money in integer cents. Another person’s payment answers 404 like a missing one.',
        params: IdParam,
        response: { 200: PaymentReceipt },
      },
    },
    async (request) => history.getMyReceipt(db, viewerOf(request), request.params.id),
  );
}
