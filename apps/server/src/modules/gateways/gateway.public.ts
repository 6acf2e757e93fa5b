/**
 * The payment gateway seam (DESIGN §2 "payments"): Stripe when keys are configured, otherwise the
 * built-in test gateway that honours Stripe's test cards. Services speak only this interface; the
 * shape follows Stripe's PaymentIntents so both implementations are thin.
 */

export type IntentStatus = 'succeeded' | 'requires_payment_method' | 'requires_action' | 'processing' | 'canceled';

export interface GatewayIntent {
  id: string;
  status: IntentStatus;
  amountCents: number;
  currency: string;
  /** Who the intent was created for: our user id. */
  customerRef: string;
  /** Our own metadata as given to createIntent. */
  metadata: Record<string, string>;
  /** The card charged, where the gateway reports it (Stripe: the latest charge's payment_method_details). */
  card?: { brand: string; last4: string } | null;
}

export interface CreateIntentInput {
  amountCents: number;
  currency: string;
  customerRef: string;
  metadata: Record<string, string>;
  /** The same key returns the same intent instead of creating another (Stripe idempotency keys). */
  idempotencyKey: string;
}

/** A refund at the gateway (Stripe's Refund object, folded). */
export interface GatewayRefund {
  id: string;
  intentId: string;
  amountCents: number;
  status: 'pending' | 'succeeded' | 'failed';
  /** Our metadata as given to refundAmount (`refund_id`); empty for one made in Stripe's dashboard. */
  metadata: Record<string, string>;
}

export interface RefundAmountInput {
  intentId: string;
  amountCents: number;
  metadata: Record<string, string>;
  /** The same key answers the same refund instead of refunding again (Stripe idempotency keys). */
  idempotencyKey: string;
}

/** A verified, parsed webhook event: only what fulfilment needs. */
export interface GatewayEvent {
  id: string;
  type: string;
  /** The id of the intent the event is about (a charge's payment intent too), when it is about one. */
  intentId: string | null;
  /** The id of the object of a Connect or dispute event (account, transfer, dispute); re-read, never trusted. */
  objectId?: string | null;
}

// ---- Money out (decision 040): connected accounts, transfers, disputes -------------------------

/** A teacher's connected account (Stripe Connect Express), as the gateway knows it now. */
export interface GatewayAccount {
  id: string;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
}

export interface CreateTransferInput {
  accountId: string;
  amountCents: number;
  currency: string;
  /** The payment the money came from (separate charges and transfers). */
  transferGroup: string;
  /** The intent whose charge funds the transfer (Stripe: its latest charge is `source_transaction`). */
  sourceIntentId: string;
  metadata: Record<string, string>;
  /** The same key answers the same transfer instead of transferring again. */
  idempotencyKey: string;
}

export interface GatewayTransfer {
  id: string;
  amountCents: number;
  reversedCents: number;
  transferGroup: string;
  metadata: Record<string, string>;
}

export { TransferRefusedError } from './transfer-refused.ts';

/** A chargeback as the gateway knows it now (Stripe's Dispute, folded). */
export interface GatewayDispute {
  id: string;
  intentId: string;
  amountCents: number;
  currency: string;
  reason: string;
  /** The gateway's status: warning_needs_response, needs_response, under_review, won, lost, … */
  status: string;
  evidenceDueBy: Date | null;
  evidence: Record<string, string | null>;
  /** Ours, where a test gateway names the disputed lines (`enrollment_ids`, comma-separated). */
  metadata: Record<string, string>;
}

/** Connected accounts and transfers: Stripe Connect, or the test gateway's offline simulation. */
export interface PayoutGateway {
  createAccount(input: { ownerRef: string; email: string; idempotencyKey: string }): Promise<GatewayAccount>;
  retrieveAccount(id: string): Promise<GatewayAccount | null>;
  /** A single-use link to the gateway's onboarding pages; it sends the teacher back to returnUrl (done) or refreshUrl (expired). */
  createOnboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string }>;
  createTransfer(input: CreateTransferInput): Promise<GatewayTransfer>;
  /** Our transfer of a payout item, found by its metadata (`payout_item`) in its transfer group; null when never made. */
  findTransfer(input: { transferGroup: string; payoutItemId: string }): Promise<GatewayTransfer | null>;
  retrieveTransfer(id: string): Promise<GatewayTransfer | null>;
  retrieveDispute(id: string): Promise<GatewayDispute | null>;
}

export interface PaymentGateway extends PayoutGateway {
  readonly name: 'test' | 'stripe';
  /** The key the browser needs to talk to the gateway (Stripe.js); null for the test gateway. */
  readonly publishableKey: string | null;
  createIntent(input: CreateIntentInput): Promise<{ id: string; clientSecret: string }>;
  /** The intent as the gateway knows it now, or null when it does not exist. */
  retrieveIntent(id: string): Promise<GatewayIntent | null>;
  /**
   * Cancels an intent that has not been charged, so it can never be charged (decision 010).
   * Answers the intent as it is afterwards: `canceled`, or the state that kept it from being
   * cancelled (`succeeded` when a charge won the race, `processing`); null when it does not exist.
   */
  cancelIntent(id: string): Promise<GatewayIntent | null>;
  /**
   * Refunds the whole charge of a succeeded intent. Safe to repeat: a second call for the same
   * intent refunds nothing more (idempotency key / a refund already made counts as done).
   */
  refund(intentId: string): Promise<void>;
  /**
   * Refunds part (or all) of a succeeded intent's charge (a refund may give back one enrollment
   * line of a payment). Safe to repeat with the same idempotency key: the first refund is answered again.
   */
  refundAmount(input: RefundAmountInput): Promise<GatewayRefund>;
  /** Every refund of an intent's charge as the gateway knows it now (re-read for charge.refunded). */
  listRefunds(intentId: string): Promise<GatewayRefund[]>;
  /**
   * Gateways that call us back implement this: it verifies the signature over the raw body and
   * throws WebhookSignatureError when it does not match.
   */
  verifyWebhook?(rawBody: Buffer, signatureHeader: string): GatewayEvent;
}

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** Webhook event types we act on (STYLE.md: an allow-list); others are acknowledged and ignored. */
export const HANDLED_EVENT_TYPES = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  // A refund made in Stripe's dashboard (or ours, echoed back): recorded once.
  'charge.refunded',
  // Money out (decision 040): whether a connected account can be paid, a transfer taken back, a chargeback.
  'account.updated',
  'transfer.reversed',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
]);

/** The built-in test gateway's card form is served by checkout when it is the configured gateway. */
export { type ConfirmOutcome, type TestGateway, type TestIntent, isTestGateway } from './test-gateway.ts';
