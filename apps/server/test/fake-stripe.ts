import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { fakeConnectRoutes, type FakeConnect } from './fake-stripe-connect.ts';

/**
 * A local stand-in for the few Stripe endpoints SkillHive calls (POST /v1/payment_intents,
 * GET /v1/payment_intents/:id, POST /v1/payment_intents/:id/cancel, POST /v1/refunds — in full or
 * by `amount`, with metadata — and GET /v1/refunds?payment_intent=), on 127.0.0.1. Its answers are typed as the SDK's own
 * Stripe.PaymentIntent, so a change in the SDK's shape breaks this file at type-check time.
 * Idempotency keys behave as Stripe documents: the same key answers the first intent again.
 *
 * For the browser (e2e, decision 017) it also answers what Stripe.js calls with a publishable key
 * and the intent's client secret — POST /v1/payment_intents/:id/confirm with a test card
 * (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0025 0000 3155 needs
 * 3-D Secure) and GET /v1/payment_intents/:id?client_secret= — plus POST
 * /v1/payment_intents/:id/fake_3ds, the bank's challenge (`result=complete|fail`), with CORS as
 * Stripe's API has it; and, given `webhook`, sends payment_intent.succeeded and
 * payment_intent.payment_failed to it signed with its secret, as Stripe does. `serve` answers
 * other GET paths (the e2e suite's fake Stripe.js and its frames). Stripe Connect (accounts, account
 * links and the hosted onboarding page, transfers and reversals, disputes) is fake-stripe-connect.ts,
 * reached as `connect`.
 */
export interface FakeStripeOptions {
  webhook?: { url: string; secret: string };
  serve?: (path: string) => { contentType: string; body: string } | null;
}

/** Stripe's test cards that the browser stand-in honours (stripe.com/docs/testing). */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  threeDSecure: '4000002500003155',
} as const;

export interface FakeStripe {
  url: string;
  intents: Map<string, Stripe.PaymentIntent>;
  /** Refunds made, as Stripe would list them (in full, or partial ones by amount). */
  refunds: Stripe.Refund[];
  /** A refund made in Stripe's dashboard (no metadata of ours); answers it, as charge.refunded would carry. */
  refundInDashboard(intentId: string, amountCents: number): Stripe.Refund;
  requests: { method: string; path: string; idempotencyKey: string | undefined; authorization: string | undefined }[];
  /** What Stripe.js confirming a test card in the browser does to the intent. */
  setStatus(id: string, status: Stripe.PaymentIntent.Status): Stripe.PaymentIntent;
  /** Webhook events sent (or held), oldest first, with the status our server answered. */
  webhookDeliveries: { type: string; intentId: string; status: number | 'held' | 'failed' }[];
  /** While true, webhook events wait until `releaseWebhooks()` (a slow Stripe). */
  holdWebhooks: boolean;
  /**
   * Stripe failing on POST /v1/refunds: `before` answers 500 and refunds nothing, `after` makes the
   * refund (once per idempotency key) and answers 500; `hang-before` and `hang-after` do the same
   * but never answer (the caller is killed while it waits); null answers as usual.
   */
  failRefunds: 'before' | 'after' | 'hang-before' | 'hang-after' | null;
  /** Answers the refunds `hang-after` made and held, as Stripe would have (a slow answer, not a lost one). */
  releaseRefunds(): void;
  releaseWebhooks(): Promise<void>;
  /** Connected accounts, transfers and disputes (fake-stripe-connect.ts). */
  connect: FakeConnect;
  close(): Promise<void>;
}

function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    request.on('error', reject);
  });
}

function newPaymentIntent(form: URLSearchParams): Stripe.PaymentIntent {
  const id = `pi_fake_${randomBytes(12).toString('hex')}`;
  const metadata: Stripe.Metadata = {};
  for (const [key, value] of form) {
    const match = /^metadata\[(.+)\]$/.exec(key);
    if (match) metadata[match[1]!] = value;
  }
  const automatic = form.get('automatic_payment_methods[enabled]') === 'true';
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: Number(form.get('amount')),
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: automatic ? { allow_redirects: 'always', enabled: true } : null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
    confirmation_method: 'automatic',
    created: Math.floor(Date.now() / 1000),
    currency: form.get('currency') ?? 'usd',
    customer: null,
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_group: null,
  };
}

function newRefund(
  intent: Stripe.PaymentIntent,
  amount: number = intent.amount,
  metadata: Stripe.Metadata = {},
): Stripe.Refund {
  return {
    id: `re_fake_${randomBytes(12).toString('hex')}`,
    object: 'refund',
    amount,
    balance_transaction: null,
    charge: typeof intent.latest_charge === 'string' ? intent.latest_charge : null,
    created: Math.floor(Date.now() / 1000),
    currency: intent.currency,
    customer: null,
    customer_account: null,
    metadata,
    payment_intent: intent.id,
    payment_method: null,
    reason: null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const intents = new Map<string, Stripe.PaymentIntent>();
  const webhookDeliveries: FakeStripe['webhookDeliveries'] = [];
  const heldEvents: (() => Promise<void>)[] = [];
  const heldRefunds: (() => void)[] = [];
  const control: { holdWebhooks: boolean; failRefunds: FakeStripe['failRefunds'] } = {
    holdWebhooks: false,
    failRefunds: null,
  };

  /** Sends the event as Stripe does: JSON, signed with the endpoint's secret, after answering the caller. */
  const sendWebhook = (
    type: 'payment_intent.succeeded' | 'payment_intent.payment_failed',
    intent: Stripe.PaymentIntent,
  ) => {
    const webhook = options.webhook;
    if (!webhook) return;
    const delivery: FakeStripe['webhookDeliveries'][number] = { type, intentId: intent.id, status: 'held' };
    webhookDeliveries.push(delivery);
    const deliver = async () => {
      const payload = JSON.stringify(paymentIntentEvent(type, intent));
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhook.secret });
      try {
        const res = await fetch(webhook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        });
        delivery.status = res.status;
      } catch {
        delivery.status = 'failed';
      }
    };
    if (control.holdWebhooks) heldEvents.push(deliver);
    else setTimeout(() => void deliver(), 0);
  };

  /** The intent after a confirmation or a challenge: succeeded (charged), or back to needing a payment method. */
  const settle = (
    intent: Stripe.PaymentIntent,
    outcome: { succeeded: true } | { succeeded: false; error: Stripe.PaymentIntent.LastPaymentError },
  ): Stripe.PaymentIntent => {
    const updated: Stripe.PaymentIntent = outcome.succeeded
      ? {
          ...intent,
          status: 'succeeded',
          amount_received: intent.amount,
          latest_charge: `ch_fake_${randomBytes(8).toString('hex')}`,
          next_action: null,
          last_payment_error: null,
        }
      : { ...intent, status: 'requires_payment_method', next_action: null, last_payment_error: outcome.error };
    intents.set(intent.id, updated);
    sendWebhook(outcome.succeeded ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', updated);
    return updated;
  };
  const refunds: Stripe.Refund[] = [];
  const refundByIdempotencyKey = new Map<string, Stripe.Refund>();
  const byIdempotencyKey = new Map<string, string>();
  const requests: FakeStripe['requests'] = [];
  const connectRoutes = fakeConnectRoutes({
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    webhook: options.webhook,
    chargeExists: (chargeId) => [...intents.values()].some((intent) => intent.latest_charge === chargeId),
  });

  const server: Server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    requests.push({ method: request.method ?? '', path, idempotencyKey, authorization: request.headers.authorization });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(6).toString('hex')}`,
      });
      response.end(JSON.stringify(body));
    };
    const missing = (id: string) =>
      send(404, {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          param: 'intent',
          message: `No such payment_intent: '${id}'`,
        },
      });

    const unexpectedState = (code: string, message: string) =>
      send(400, { error: { type: 'invalid_request_error', code, message } });

    // Stripe's API answers browsers from any origin (Stripe.js calls it from the shop's page).
    response.setHeader('access-control-allow-origin', '*');
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'authorization, content-type',
      });
      return response.end();
    }
    if (request.method === 'GET' && options.serve && !path.startsWith('/v1/')) {
      const file = options.serve(path);
      if (file) {
        response.writeHead(200, { 'content-type': file.contentType, 'cache-control': 'no-store' });
        return response.end(file.body);
      }
    }

    /** A browser call: the publishable key, and the client secret of this very intent. */
    const browserIntent = (id: string, clientSecret: string | null): Stripe.PaymentIntent | null => {
      const intent = intents.get(id);
      const key = request.headers.authorization ?? '';
      if (!intent || !key.startsWith('Bearer pk_') || intent.client_secret !== clientSecret) {
        missing(id);
        return null;
      }
      return intent;
    };

    const confirm = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path);
    if (request.method === 'POST' && confirm) {
      const form = await readForm(request);
      const intent = browserIntent(decodeURIComponent(confirm[1]!), form.get('client_secret'));
      if (!intent) return;
      if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation') {
        return unexpectedState(
          'payment_intent_unexpected_state',
          `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`,
        );
      }
      const number = (form.get('payment_method_data[card][number]') ?? '').replace(/\D/g, '');
      const withMethod: Stripe.PaymentIntent = {
        ...intent,
        payment_method: `pm_fake_${randomBytes(8).toString('hex')}`,
      };
      if (number === TEST_CARDS.threeDSecure) {
        const waiting: Stripe.PaymentIntent = {
          ...withMethod,
          status: 'requires_action',
          next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } },
        };
        intents.set(intent.id, waiting);
        return send(200, waiting);
      }
      if (number === TEST_CARDS.succeeds) return send(200, settle(withMethod, { succeeded: true }));
      const error: Stripe.PaymentIntent.LastPaymentError = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message:
          number === TEST_CARDS.declined
            ? 'Your card was declined.'
            : 'Your card was declined. Your request was in test mode, but used a non test card.',
      };
      const declined = settle(withMethod, { succeeded: false, error });
      return send(402, { error: { ...error, payment_intent: declined } });
    }
    const challenge = /^\/v1\/payment_intents\/([^/]+)\/fake_3ds$/.exec(path);
    if (request.method === 'POST' && challenge) {
      const form = await readForm(request);
      const intent = browserIntent(decodeURIComponent(challenge[1]!), form.get('client_secret'));
      if (!intent) return;
      if (intent.status !== 'requires_action') {
        return unexpectedState(
          'payment_intent_unexpected_state',
          'This PaymentIntent is not waiting for authentication.',
        );
      }
      return send(
        200,
        form.get('result') === 'complete'
          ? settle(intent, { succeeded: true })
          : settle(intent, {
              succeeded: false,
              error: {
                type: 'invalid_request_error',
                code: 'payment_intent_authentication_failure',
                message: AUTHENTICATION_FAILED,
              },
            }),
      );
    }

    if (request.method === 'POST' && path === '/v1/payment_intents') {
      const form = await readForm(request);
      const known = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
      if (known) return send(200, intents.get(known));
      const intent = newPaymentIntent(form);
      intents.set(intent.id, intent);
      if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, intent.id);
      return send(200, intent);
    }
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (request.method === 'POST' && cancel) {
      await readForm(request);
      const id = decodeURIComponent(cancel[1]!);
      const intent = intents.get(id);
      if (!intent) return missing(id);
      // Stripe cancels only what has not been charged (nor is being charged).
      if (intent.status === 'succeeded' || intent.status === 'processing') {
        return unexpectedState(
          'payment_intent_unexpected_state',
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
        );
      }
      const canceled: Stripe.PaymentIntent = {
        ...intent,
        status: 'canceled',
        canceled_at: Math.floor(Date.now() / 1000),
        cancellation_reason: 'requested_by_customer',
      };
      intents.set(id, canceled);
      return send(200, canceled);
    }
    if (request.method === 'POST' && path === '/v1/refunds') {
      const form = await readForm(request);
      const failure = control.failRefunds;
      const hang = failure === 'hang-before' || failure === 'hang-after';
      const fail = (made?: Stripe.Refund) => {
        if (!hang) return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
        if (made) heldRefunds.push(() => send(200, made));
      };
      if (failure === 'before' || failure === 'hang-before') return fail();
      const known = idempotencyKey ? refundByIdempotencyKey.get(idempotencyKey) : undefined;
      if (known) return failure ? fail(known) : send(200, known);
      const id = form.get('payment_intent') ?? '';
      const intent = intents.get(id);
      if (!intent) return missing(id);
      if (intent.status !== 'succeeded') {
        return unexpectedState('payment_intent_unexpected_state', 'This PaymentIntent has no charge to refund.');
      }
      const refunded = refunds.filter((r) => r.payment_intent === id).reduce((sum, r) => sum + r.amount, 0);
      if (refunded >= intent.amount) {
        return unexpectedState(
          'charge_already_refunded',
          `Charge ${String(intent.latest_charge)} has already been refunded.`,
        );
      }
      // Without `amount` Stripe refunds what is left; more than is left is refused.
      const amount = form.has('amount') ? Number(form.get('amount')) : intent.amount - refunded;
      if (!Number.isInteger(amount) || amount < 1 || refunded + amount > intent.amount) {
        return send(400, {
          error: {
            type: 'invalid_request_error',
            param: 'amount',
            message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${intent.amount - refunded})`,
          },
        });
      }
      const metadata: Stripe.Metadata = {};
      for (const [key, value] of form) {
        const match = /^metadata\[(.+)\]$/.exec(key);
        if (match) metadata[match[1]!] = value;
      }
      const refund = newRefund(intent, amount, metadata);
      refunds.push(refund);
      if (idempotencyKey) refundByIdempotencyKey.set(idempotencyKey, refund);
      return failure ? fail(refund) : send(200, refund);
    }
    if (request.method === 'GET' && path === '/v1/refunds') {
      const query = new URLSearchParams((request.url ?? '').split('?')[1] ?? '');
      const id = query.get('payment_intent');
      const data = refunds.filter((r) => !id || r.payment_intent === id);
      const list: Stripe.ApiList<Stripe.Refund> = { object: 'list', data, has_more: false, url: '/v1/refunds' };
      return send(200, list);
    }
    const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && match) {
      const intent = intents.get(decodeURIComponent(match[1]!));
      return intent ? send(200, intent) : missing(match[1]!);
    }
    if (await connectRoutes.handle(request, response, path, send)) return;
    send(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    refunds,
    requests,
    webhookDeliveries,
    connect: connectRoutes.connect,
    get holdWebhooks() {
      return control.holdWebhooks;
    },
    set holdWebhooks(value: boolean) {
      control.holdWebhooks = value;
    },
    get failRefunds() {
      return control.failRefunds;
    },
    set failRefunds(value: FakeStripe['failRefunds']) {
      control.failRefunds = value;
    },
    releaseRefunds() {
      for (const answer of heldRefunds.splice(0)) answer();
    },
    async releaseWebhooks() {
      for (const deliver of heldEvents.splice(0)) await deliver();
    },
    refundInDashboard(intentId, amountCents) {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`fake Stripe has no intent ${intentId}`);
      const refund = newRefund(intent, amountCents);
      refunds.push(refund);
      return refund;
    },
    setStatus(id, status) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`fake Stripe has no intent ${id}`);
      const updated: Stripe.PaymentIntent = {
        ...intent,
        status,
        amount_received: status === 'succeeded' ? intent.amount : 0,
        latest_charge: status === 'succeeded' ? `ch_fake_${randomBytes(8).toString('hex')}` : intent.latest_charge,
        payment_method: `pm_fake_${randomBytes(8).toString('hex')}`,
      };
      intents.set(id, updated);
      return updated;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** A webhook event as Stripe sends it, typed by the SDK. */
export function paymentIntentEvent(
  type: 'payment_intent.succeeded' | 'payment_intent.payment_failed',
  intent: Stripe.PaymentIntent,
  id = `evt_fake_${randomBytes(10).toString('hex')}`,
): Stripe.PaymentIntentSucceededEvent | Stripe.PaymentIntentPaymentFailedEvent {
  const base = {
    id,
    object: 'event' as const,
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    data: { object: intent },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  };
  return type === 'payment_intent.succeeded' ? { ...base, type } : { ...base, type };
}

/**
 * charge.refunded as Stripe sends it, typed by the SDK: the event's object is the charge, with the
 * fields SkillHive reads (its payment intent); the handler re-reads the refunds from the API.
 */
export function chargeRefundedEvent(
  intent: Stripe.PaymentIntent,
  amountRefunded: number,
  id = `evt_fake_${randomBytes(10).toString('hex')}`,
): Omit<Stripe.ChargeRefundedEvent, 'data'> & {
  data: {
    object: Pick<
      Stripe.Charge,
      'id' | 'object' | 'amount' | 'amount_refunded' | 'currency' | 'payment_intent' | 'refunded' | 'status'
    >;
  };
} {
  return {
    id,
    object: 'event',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    type: 'charge.refunded',
    data: {
      object: {
        id:
          typeof intent.latest_charge === 'string' ? intent.latest_charge : `ch_fake_${randomBytes(8).toString('hex')}`,
        object: 'charge',
        amount: intent.amount,
        amount_refunded: amountRefunded,
        currency: intent.currency,
        payment_intent: intent.id,
        refunded: amountRefunded >= intent.amount,
        status: 'succeeded',
      },
    },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  };
}
