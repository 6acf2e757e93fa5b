import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { WebhookResponse } from '@skillhive/shared/contracts/payments';
import { AppError, ErrorCode } from '../../lib/app-error.ts';
import { WebhookSignatureError } from '../gateways/gateway.public.ts';
import type { PaymentsDeps } from './fulfilment.service.ts';
import { handleGatewayEvent } from './webhooks.service.ts';

/**
 * POST /api/webhooks/stripe. An encapsulated plugin: its content-type parser keeps the body as
 * the raw bytes Stripe signed (a re-serialised JSON object would not verify), without changing
 * how the rest of the API parses JSON.
 */
export async function stripeWebhookRoutes(app: FastifyInstance, opts: { deps: PaymentsDeps }) {
  const { deps } = opts;
  const verify = deps.gateway.verifyWebhook?.bind(deps.gateway);
  if (!verify) return;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/webhooks/stripe',
    {
      config: { access: 'signature', errors: [503] },
      schema: {
        tags: ['payments'],
        operationId: 'stripeWebhook',
        summary: 'Stripe events, verified by their Stripe-Signature header (Stripe only)',
        description:
          'payment_intent.succeeded records the payment (re-reading the intent from Stripe); charge.refunded records the refunds not yet recorded (re-reading them from Stripe); payment_intent.payment_failed is acknowledged. Other types are acknowledged and ignored; an event id seen before is acknowledged without acting again. 400 for a missing or invalid signature.',
        response: { 200: WebhookResponse },
      },
    },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      const raw = request.body;
      if (typeof signature !== 'string' || !Buffer.isBuffer(raw)) {
        throw new AppError(ErrorCode.VALIDATION, 'Missing Stripe signature or body');
      }
      let event;
      try {
        event = verify(raw, signature);
      } catch (error) {
        if (error instanceof WebhookSignatureError) {
          throw new AppError(ErrorCode.VALIDATION, 'Invalid Stripe signature', { cause: error });
        }
        throw error;
      }
      return handleGatewayEvent(deps, event);
    },
  );
}
