import Stripe from 'stripe';
import { AppError, ErrorCode } from '../../lib/app-error.ts';
import {
  type CreateIntentInput,
  type GatewayEvent,
  type GatewayIntent,
  type GatewayRefund,
  type IntentStatus,
  type PaymentGateway,
  type RefundAmountInput,
  WebhookSignatureError,
} from './gateway.public.ts';
import { createStripePayouts } from './stripe-connect.ts';

/** Our user id travels in the intent's metadata under this key (we create no Stripe customers). */
const CUSTOMER_REF_KEY = 'customer_ref';

export interface StripeGatewayConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** STRIPE_API_BASE: where the SDK sends its requests instead of api.stripe.com (local fakes). */
  apiBase?: string | undefined;
}

/** STRIPE_API_BASE → the SDK's host/port/protocol options. */
export function stripeConnectionOptions(
  apiBase: string | undefined,
): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/** Stripe's states folded onto ours: unconfirmed counts as awaiting a payment method, uncaptured as processing. */
function toStatus(status: Stripe.PaymentIntent.Status): IntentStatus {
  switch (status) {
    case 'succeeded':
    case 'requires_action':
    case 'processing':
    case 'canceled':
    case 'requires_payment_method':
      return status as IntentStatus;
    case 'requires_capture':
      return 'processing';
    default:
      return 'requires_payment_method';
  }
}

function toIntent(pi: Stripe.PaymentIntent): GatewayIntent {
  const { [CUSTOMER_REF_KEY]: customerRef, ...metadata } = pi.metadata;
  return {
    id: pi.id,
    status: toStatus(pi.status),
    amountCents: pi.amount,
    currency: pi.currency,
    customerRef: customerRef ?? '',
    metadata,
    card: cardOf(pi.latest_charge),
  };
}

/** The card of the intent's latest charge, when it was expanded and paid by card. */
function cardOf(charge: Stripe.PaymentIntent['latest_charge']): GatewayIntent['card'] {
  if (!charge || typeof charge === 'string') return null;
  const card = charge.payment_method_details?.card;
  return card?.last4 ? { brand: card.brand ?? 'unknown', last4: card.last4 } : null;
}

/** Stripe's refund states folded onto ours: requires_action and pending are still pending. */
function toRefund(refund: Stripe.Refund, intentId: string): GatewayRefund {
  const status =
    refund.status === 'succeeded'
      ? 'succeeded'
      : refund.status === 'failed' || refund.status === 'canceled'
        ? 'failed'
        : 'pending';
  const paymentIntent = typeof refund.payment_intent === 'string' ? refund.payment_intent : refund.payment_intent?.id;
  return {
    id: refund.id,
    intentId: paymentIntent ?? intentId,
    amountCents: refund.amount,
    status,
    metadata: refund.metadata ?? {},
  };
}

/** Network trouble or Stripe's own 5xx is a 503 for our caller, not a 500 of ours. */
function unavailable(error: unknown): AppError {
  return new AppError(ErrorCode.UNAVAILABLE, 'The payment service is not reachable; please try again', {
    cause: error,
  });
}

/** Stripe PaymentIntents (DESIGN §2): card details never touch our server; Stripe.js confirms in the browser. */
export function createStripeGateway(config: StripeGatewayConfig): PaymentGateway {
  const stripe = new Stripe(config.secretKey, {
    ...stripeConnectionOptions(config.apiBase),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });

  async function retrieveIntent(id: string): Promise<GatewayIntent | null> {
    try {
      // The latest charge expanded: its payment_method_details name the card for the payment record.
      return toIntent(await stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) return null;
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return null;
      throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
    }
  }

  return {
    name: 'stripe',
    publishableKey: config.publishableKey,
    ...createStripePayouts(stripe),

    async createIntent(input: CreateIntentInput) {
      try {
        const pi = await stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: input.currency,
            metadata: { ...input.metadata, [CUSTOMER_REF_KEY]: input.customerRef },
            automatic_payment_methods: { enabled: true },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        if (!pi.client_secret) throw new Error(`Stripe returned payment intent ${pi.id} without a client secret`);
        return { id: pi.id, clientSecret: pi.client_secret };
      } catch (error) {
        throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
      }
    },

    retrieveIntent,

    async cancelIntent(id) {
      try {
        return toIntent(await stripe.paymentIntents.cancel(id));
      } catch (error) {
        // payment_intent_unexpected_state: it succeeded or is processing; answer how it is now.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return retrieveIntent(id);
        throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
      }
    },

    async refund(intentId) {
      try {
        await stripe.refunds.create({ payment_intent: intentId }, { idempotencyKey: `skillhive-refund-${intentId}` });
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'charge_already_refunded')
          return;
        throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
      }
    },

    async refundAmount(input: RefundAmountInput) {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: input.intentId, amount: input.amountCents, metadata: input.metadata },
          { idempotencyKey: input.idempotencyKey },
        );
        return toRefund(refund, input.intentId);
      } catch (error) {
        throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
      }
    },

    async listRefunds(intentId) {
      try {
        const refunds: GatewayRefund[] = [];
        for await (const refund of stripe.refunds.list({ payment_intent: intentId, limit: 100 })) {
          refunds.push(toRefund(refund, intentId));
        }
        return refunds;
      } catch (error) {
        throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
      }
    },

    verifyWebhook(rawBody: Buffer, signatureHeader: string): GatewayEvent {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, config.webhookSecret);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'Invalid signature');
      }
      const object = event.data.object as { object?: unknown; id?: unknown; payment_intent?: unknown };
      // A charge or dispute event (charge.refunded, charge.dispute.*) is about its payment intent.
      const intentId =
        object.object === 'payment_intent' && typeof object.id === 'string'
          ? object.id
          : (object.object === 'charge' || object.object === 'dispute') && typeof object.payment_intent === 'string'
            ? object.payment_intent
            : null;
      const objectId = typeof object.id === 'string' ? object.id : null;
      return { id: event.id, type: event.type, intentId, objectId };
    },
  };
}
