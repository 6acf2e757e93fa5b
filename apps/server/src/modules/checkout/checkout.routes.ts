import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EmailParam } from '@skillhive/shared/contracts/common';
import {
  AuthenticateBody,
  ConfirmCardBody,
  ConfirmCardResponse,
  CreatePaymentBody,
  CreatePaymentIntentBody,
  CreatePaymentResponse,
  Payment,
  PaymentIntentResponse,
  PaymentListQuery,
} from '@skillhive/shared/contracts/payments';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import type { Limiter } from '../../lib/rate-limit.ts';
import { replyWithPage } from '../../lib/paging.ts';
import { isUnusableCoupon } from '../coupons/coupons.service.ts';
import { type PaymentGateway, isTestGateway } from '../gateways/gateway.public.ts';
import * as checkout from './checkout.service.ts';
import * as fulfilment from './fulfilment.service.ts';
import * as history from './payment-history.service.ts';
import { stripeWebhookRoutes } from './stripe-webhook.routes.ts';
import * as testCard from './test-card.service.ts';

export interface PaymentsRoutesOptions {
  db: Db;
  gateway: PaymentGateway;
  now: () => Date;
  publicUrl: string;
  notifications: fulfilment.PaymentsDeps['notifications'];
  /** How the earnings ledger splits and holds each paid line (decision 039). */
  ledger: fulfilment.PaymentsDeps['ledger'];
  /** How long creating a payment intent holds its sections' seats (SEAT_HOLD_MINUTES, decision 042). */
  seatHoldMinutes: number;
  /** Unusable coupon codes tried at checkout (RATE_LIMIT_COUPON_FAILURES…): per account, per client address. */
  couponFailures: { perAccount: Limiter; perIp: Limiter };
}

/**
 * Runs a checkout that tries a coupon code under the limits on wrong codes. The attempt is
 * counted first, for the account and for the client address (so a parallel burst gets no more
 * tries than the limit; over either, 429 even for a good code), and given back unless the answer
 * is that the code cannot be used: codes that apply, and failures of anything else, cost nothing.
 */
async function withCouponAttempt<T>(
  limits: PaymentsRoutesOptions['couponFailures'],
  keys: { account: string; ip: string },
  run: () => Promise<T>,
): Promise<T> {
  await limits.perAccount.consume(keys.account);
  try {
    await limits.perIp.consume(keys.ip);
  } catch (error) {
    await limits.perAccount.refund(keys.account);
    throw error;
  }
  try {
    const result = await run();
    await Promise.all([limits.perAccount.refund(keys.account), limits.perIp.refund(keys.ip)]);
    return result;
  } catch (error) {
    if (!isUnusableCoupon(error)) {
      await Promise.all([limits.perAccount.refund(keys.account), limits.perIp.refund(keys.ip)]);
    }
    throw error;
  }
}

/** Paying for the cart (spec §4 payment flow, §7 calls; DESIGN §1.3). */
export async function paymentsRoutes(app: FastifyInstance, opts: PaymentsRoutesOptions) {
  const { db, gateway } = opts;
  const deps: fulfilment.PaymentsDeps = {
    db,
    gateway,
    now: opts.now,
    log: app.log,
    publicUrl: opts.publicUrl,
    notifications: opts.notifications,
    ledger: opts.ledger,
  };
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/create-payment-intent',
    {
      config: { access: 'verified', errors: [403, 404, 409, 429, 503] },
      schema: {
        tags: ['payments'],
        operationId: 'createPaymentIntent',
        summary:
          "Start paying for the caller's cart: the amount is the total of their pending enrollments; a price in the body is ignored (any signed-in user with a verified e-mail address)",
        description:
          '409 when the cart is empty. The same cart (and coupon) gives back the same intent. `couponCode` applies a coupon: the answer lists each line with its discount, and `amount` is the discounted total (decision 019); every code the caller cannot use (unknown, disabled, expired, used up, already used, for other classes) gets the same 404 with the same message on `fields.couponCode`; a code that would bring the total below $0.50 is a 409 saying so. Each line of a section with a seat limit holds its seat for another SEAT_HOLD_MINUTES (decision 042); a line whose hold expired while its section filled up makes it a 409 and nothing is charged. Unusable codes are limited per account (RATE_LIMIT_COUPON_FAILURES) and per client address (RATE_LIMIT_COUPON_FAILURES_PER_IP) in RATE_LIMIT_COUPON_WINDOW_SECONDS; past either, 429 with Retry-After, even for a good code.',
        body: CreatePaymentIntentBody,
        response: { 200: PaymentIntentResponse },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const checkoutDeps = { ...deps, seatHoldMinutes: opts.seatHoldMinutes };
      if (!request.body?.couponCode?.trim()) return checkout.createPaymentIntent(checkoutDeps, viewer, request.body);
      return withCouponAttempt(opts.couponFailures, { account: viewer.id, ip: request.ip }, () =>
        checkout.createPaymentIntent(checkoutDeps, viewer, request.body),
      );
    },
  );

  typed.post(
    '/api/payments',
    {
      config: { access: 'signed-in', owner: 'payer', errors: [403, 404, 409, 503] },
      schema: {
        tags: ['payments'],
        operationId: 'recordPayment',
        summary:
          'Record a payment the gateway confirmed and mark exactly those enrollments paid; only transactionId and cartIds are read (the paying student)',
        description:
          'The intent must have succeeded, belong to the caller and cover exactly `cartIds`, whose total must equal the amount charged. 201 when this call recorded it; 200 with the same insertedId when it was recorded already (a repeat, a concurrent call, or the gateway confirmation/webhook). 409 when the cart does not match.',
        body: CreatePaymentBody,
        response: { 200: CreatePaymentResponse, 201: CreatePaymentResponse },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const result = await fulfilment.recordPaymentOfViewer(deps, viewer, request.body);
      return reply.status(result.created ? 201 : 200).send({ paymentResult: { insertedId: result.insertedId } });
    },
  );

  typed.get(
    '/api/payments/:email',
    {
      config: { access: 'self-or-admin', list: true },
      schema: {
        tags: ['payments'],
        operationId: 'listPayments',
        summary: "A student's payment history with the classes paid, newest first (the student themself, or an admin)",
        params: EmailParam,
        querystring: PaymentListQuery,
        response: { 200: z.array(Payment) },
      },
    },
    async (request, reply) =>
      replyWithPage(reply, await history.listPaymentsOf(db, request.params.email, request.query)),
  );

  if (isTestGateway(gateway)) {
    const testDeps = { ...deps, gateway };

    typed.post(
      '/api/test-gateway/confirm',
      {
        config: { access: 'signed-in', owner: 'intent-owner', errors: [402, 404, 409] },
        schema: {
          tags: ['payments'],
          operationId: 'confirmTestCard',
          summary:
            "Pay an intent with one of Stripe's test cards (the intent's owner; only when no Stripe keys are configured)",
          description:
            '4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is a 402 card_declined and 4000 0000 0000 9995 a 402 insufficient_funds (the intent stays payable); 4000 0025 0000 3155 answers requires_action, completed by /api/test-gateway/authenticate. Bad numbers, expired dates and bad CVCs are 400. A successful charge is recorded at once.',
          body: ConfirmCardBody,
          response: { 200: ConfirmCardResponse },
        },
      },
      async (request) => testCard.confirmTestCard(testDeps, viewerOf(request), request.body),
    );

    typed.post(
      '/api/test-gateway/authenticate',
      {
        config: { access: 'signed-in', owner: 'intent-owner', errors: [402, 404, 409] },
        schema: {
          tags: ['payments'],
          operationId: 'authenticateTestCard',
          summary:
            "Approve or fail the 3-D Secure step of a requires_action intent (the intent's owner; test gateway only)",
          description: 'approve: false is a 402 card_declined (authentication failed) and the intent stays payable.',
          body: AuthenticateBody,
          response: { 200: ConfirmCardResponse },
        },
      },
      async (request) => testCard.authenticateTestCard(testDeps, viewerOf(request), request.body),
    );
  }

  if (gateway.verifyWebhook) {
    await app.register(stripeWebhookRoutes, { deps });
  }
}
