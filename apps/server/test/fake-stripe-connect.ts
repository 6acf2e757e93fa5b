import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Stripe from 'stripe';

/**
 * The Stripe Connect part of the local stand-in for Stripe (fake-stripe.ts hands it every request
 * its own routes do not answer): what a marketplace that pays its teachers calls — POST
 * /v1/accounts (Express accounts), GET /v1/accounts/:id, POST /v1/account_links, POST /v1/transfers
 * (with `destination`, `transfer_group`, `source_transaction`, metadata and an idempotency key),
 * GET /v1/transfers/:id, GET /v1/transfers?transfer_group=&destination=, POST
 * /v1/transfers/:id/reversals, GET /v1/disputes/:id — and Stripe's hosted onboarding page, at the
 * account link's URL: a small form whose submission enables the account's payouts, sends
 * `account.updated` and returns the browser to the link's `return_url` (its "Not now" goes to
 * `refresh_url`). Answers are typed as the SDK's own objects (a Pick of them where Stripe's object
 * is mostly fields SkillHive never reads), so a change in the SDK's shape breaks this file at
 * type-check time. Events it sends (account.updated, transfer.reversed, charge.dispute.created,
 * charge.dispute.closed) are signed with the webhook secret, as Stripe signs them.
 */

/** The fields of a dispute SkillHive reads (its amount, charge, deadline, status and reason). */
export type FakeDispute = Pick<
  Stripe.Dispute,
  | 'id'
  | 'object'
  | 'amount'
  | 'charge'
  | 'currency'
  | 'created'
  | 'is_charge_refundable'
  | 'livemode'
  | 'metadata'
  | 'payment_intent'
  | 'reason'
  | 'status'
> & {
  /** Stripe sends every evidence field, null until the platform answers; these few stand for them. */
  evidence: Pick<Stripe.Dispute.Evidence, 'customer_email_address' | 'product_description' | 'uncategorized_text'>;
  evidence_details: Pick<Stripe.Dispute.EvidenceDetails, 'due_by' | 'has_evidence' | 'past_due' | 'submission_count'>;
};

export type ConnectEventType =
  'account.updated' | 'transfer.reversed' | 'charge.dispute.created' | 'charge.dispute.closed';

export interface FakeConnect {
  accounts: Map<string, Stripe.Account>;
  /** Transfers made, by id, in the order they were made. */
  transfers: Map<string, Stripe.Transfer>;
  disputes: Map<string, FakeDispute>;
  /** Connect events sent, oldest first, with the status our server answered. */
  deliveries: { type: ConnectEventType; objectId: string; status: number | 'failed' }[];
  /**
   * Stripe failing on POST /v1/transfers: `before` answers 500 and moves nothing, `after` makes the
   * transfer (once per idempotency key) and answers 500; `hang-before` and `hang-after` do the same
   * but never answer (the caller is killed while it waits); null answers as usual.
   */
  failTransfers: 'before' | 'after' | 'hang-before' | 'hang-after' | null;
  /** Answers the transfers `hang-after` made and held, as Stripe would have (a slow answer, not a lost one). */
  releaseTransfers(): void;
  /** What finishing Stripe's hosted onboarding does: payouts enabled, `account.updated` sent. */
  completeOnboarding(accountId: string): Promise<Stripe.Account>;
  /** A reversal made in Stripe's dashboard (in full without `amount`): `transfer.reversed` sent. */
  reverseInDashboard(transferId: string, amountCents?: number): Promise<Stripe.TransferReversal>;
  /** A cardholder disputes the charge of `intent`: `charge.dispute.created` sent. */
  raiseDispute(
    intent: Pick<Stripe.PaymentIntent, 'id' | 'latest_charge' | 'amount' | 'currency'>,
    amountCents?: number,
  ): Promise<FakeDispute>;
  /** The card network decides: `charge.dispute.closed` sent with status won or lost. */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Promise<FakeDispute>;
}

export interface ConnectContext {
  /** The fake's own origin (its onboarding page lives there). */
  url: () => string;
  webhook?: { url: string; secret: string };
  /** The charges the fake API has made (a transfer's `source_transaction` must be one of them). */
  chargeExists: (chargeId: string) => boolean;
}

type Send = (status: number, body: unknown) => void;

export interface FakeConnectRoutes {
  connect: FakeConnect;
  /** Answers the request if it is Connect's; false when it is not. */
  handle(request: IncomingMessage, response: ServerResponse, path: string, send: Send): Promise<boolean>;
}

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_fake_${randomBytes(12).toString('hex')}`;

function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    request.on('error', reject);
  });
}

function metadataOf(form: URLSearchParams): Stripe.Metadata {
  const metadata: Stripe.Metadata = {};
  for (const [key, value] of form) {
    const match = /^metadata\[(.+)\]$/.exec(key);
    if (match) metadata[match[1]!] = value;
  }
  return metadata;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Stripe's hosted onboarding, reduced to what a person does there: confirm their payout details. */
function onboardingPage(account: Stripe.Account, link: { return_url: string; refresh_url: string }): string {
  const id = escapeHtml(account.id);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Set up payouts — Fake Stripe</title>
<style>body{font:16px system-ui,sans-serif;margin:2rem auto;max-width:28rem;color:#1a1a1a;padding:0 1rem}
form{display:grid;gap:1rem}label{display:grid;gap:.25rem;font-weight:600}input{font:inherit;padding:.5rem;border:1px solid #767676;border-radius:.375rem}
button{font:inherit;padding:.5rem 1rem}a{color:#0b57d0}</style></head><body><main>
<h1>Set up payouts</h1><p>Account <code>${id}</code>${account.email ? ` for ${escapeHtml(account.email)}` : ''}.</p>
<form method="post" action="/fake/connect/onboarding/${id}">
<input type="hidden" name="return_url" value="${escapeHtml(link.return_url)}">
<label>Account holder<input name="holder" autocomplete="name" required></label>
<label>Bank account number (IBAN)<input name="iban" required value="DE89370400440532013000"></label>
<button type="submit">Agree and submit</button></form>
<p><a href="${escapeHtml(link.refresh_url)}">Not now</a></p></main></body></html>`;
}

export function fakeConnectRoutes(context: ConnectContext): FakeConnectRoutes {
  const accounts = new Map<string, Stripe.Account>();
  const transfers = new Map<string, Stripe.Transfer>();
  const disputes = new Map<string, FakeDispute>();
  const links = new Map<string, { return_url: string; refresh_url: string }>();
  const accountByKey = new Map<string, string>();
  const transferByKey = new Map<string, { transfer: Stripe.Transfer; params: string }>();
  const heldAnswers: (() => void)[] = [];
  const deliveries: FakeConnect['deliveries'] = [];
  const control: { failTransfers: FakeConnect['failTransfers'] } = { failTransfers: null };

  /** Sends the event as Stripe does: JSON, signed with the endpoint's secret; resolves once answered. */
  const sendEvent = async (type: ConnectEventType, object: { id: string }) => {
    const webhook = context.webhook;
    if (!webhook) return;
    const delivery: FakeConnect['deliveries'][number] = { type, objectId: object.id, status: 'failed' };
    deliveries.push(delivery);
    const event = {
      id: newId('evt'),
      object: 'event' as const,
      api_version: '2025-01-01',
      created: now(),
      type,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    const payload = JSON.stringify(event);
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

  const enable = async (accountId: string) => {
    const account = accounts.get(accountId);
    if (!account) throw new Error(`fake Stripe has no account ${accountId}`);
    const enabled: Stripe.Account = {
      ...account,
      details_submitted: true,
      charges_enabled: true,
      payouts_enabled: true,
    };
    accounts.set(accountId, enabled);
    await sendEvent('account.updated', enabled);
    return enabled;
  };

  const reverse = (transfer: Stripe.Transfer, amount: number, metadata: Stripe.Metadata): Stripe.TransferReversal => {
    const reversal: Stripe.TransferReversal = {
      id: newId('trr'),
      object: 'transfer_reversal',
      amount,
      balance_transaction: null,
      created: now(),
      currency: transfer.currency,
      destination_payment_refund: null,
      metadata,
      source_refund: null,
      transfer: transfer.id,
    };
    const amountReversed = transfer.amount_reversed + amount;
    transfers.set(transfer.id, {
      ...transfer,
      amount_reversed: amountReversed,
      reversed: amountReversed >= transfer.amount,
      reversals: { ...transfer.reversals, data: [...transfer.reversals.data, reversal] },
    });
    return reversal;
  };

  const closeDispute = async (disputeId: string, outcome: 'won' | 'lost') => {
    const dispute = disputes.get(disputeId);
    if (!dispute) throw new Error(`fake Stripe has no dispute ${disputeId}`);
    const closed: FakeDispute = { ...dispute, status: outcome, is_charge_refundable: false };
    disputes.set(disputeId, closed);
    await sendEvent('charge.dispute.closed', closed);
    return closed;
  };

  const connect: FakeConnect = {
    accounts,
    transfers,
    disputes,
    deliveries,
    get failTransfers() {
      return control.failTransfers;
    },
    set failTransfers(value) {
      control.failTransfers = value;
    },
    releaseTransfers() {
      for (const answer of heldAnswers.splice(0)) answer();
    },
    completeOnboarding: enable,
    async reverseInDashboard(transferId, amountCents) {
      const transfer = transfers.get(transferId);
      if (!transfer) throw new Error(`fake Stripe has no transfer ${transferId}`);
      const reversal = reverse(transfer, amountCents ?? transfer.amount - transfer.amount_reversed, {});
      await sendEvent('transfer.reversed', transfers.get(transferId)!);
      return reversal;
    },
    async raiseDispute(intent, amountCents) {
      if (typeof intent.latest_charge !== 'string') throw new Error(`intent ${intent.id} has no charge to dispute`);
      const dispute: FakeDispute = {
        id: newId('dp'),
        object: 'dispute',
        amount: amountCents ?? intent.amount,
        charge: intent.latest_charge,
        currency: intent.currency,
        created: now(),
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        payment_intent: intent.id,
        reason: 'fraudulent',
        status: 'needs_response',
        evidence: { customer_email_address: null, product_description: null, uncategorized_text: null },
        // Stripe gives about three weeks to answer.
        evidence_details: { due_by: now() + 21 * 86_400, has_evidence: false, past_due: false, submission_count: 0 },
      };
      disputes.set(dispute.id, dispute);
      await sendEvent('charge.dispute.created', dispute);
      return dispute;
    },
    closeDispute,
  };

  const missing = (send: Send, kind: string, id: string) =>
    send(404, {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
        message: `No such ${kind}: '${id}'`,
      },
    });
  const invalid = (send: Send, message: string, param?: string) =>
    send(400, { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } });

  const handle: FakeConnectRoutes['handle'] = async (request, response, path, send) => {
    const method = request.method ?? '';
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;

    const page = /^\/fake\/connect\/onboarding\/([^/]+)$/.exec(path);
    if (page) {
      const accountId = decodeURIComponent(page[1]!);
      const account = accounts.get(accountId);
      const link = links.get(accountId);
      if (!account || !link) {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('This onboarding link is not valid.');
        return true;
      }
      if (method === 'GET') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        response.end(onboardingPage(account, link));
        return true;
      }
      if (method === 'POST') {
        await readForm(request);
        // The event is on its way before the person is back at the platform, as with Stripe.
        await enable(accountId);
        response.writeHead(303, { location: link.return_url });
        response.end();
        return true;
      }
    }

    if (method === 'POST' && path === '/v1/accounts') {
      const form = await readForm(request);
      const known = idempotencyKey ? accountByKey.get(idempotencyKey) : undefined;
      if (known) {
        send(200, accounts.get(known));
        return true;
      }
      const type = form.get('type') ?? 'express';
      if (type !== 'express' && type !== 'standard' && type !== 'custom') {
        invalid(send, `Invalid type: must be one of custom, express, or standard`, 'type');
        return true;
      }
      const account: Stripe.Account = {
        id: newId('acct'),
        object: 'account',
        type,
        charges_enabled: false,
        payouts_enabled: false,
        details_submitted: false,
        email: form.get('email'),
        country: form.get('country') ?? 'US',
        created: now(),
        default_currency: 'usd',
        metadata: metadataOf(form),
      };
      accounts.set(account.id, account);
      if (idempotencyKey) accountByKey.set(idempotencyKey, account.id);
      send(200, account);
      return true;
    }
    const accountPath = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (method === 'GET' && accountPath) {
      const id = decodeURIComponent(accountPath[1]!);
      const account = accounts.get(id);
      if (account) send(200, account);
      else missing(send, 'account', id);
      return true;
    }
    if (method === 'POST' && path === '/v1/account_links') {
      const form = await readForm(request);
      const accountId = form.get('account') ?? '';
      const returnUrl = form.get('return_url');
      const refreshUrl = form.get('refresh_url');
      if (!accounts.has(accountId)) {
        missing(send, 'account', accountId);
        return true;
      }
      if (!returnUrl || !refreshUrl) {
        invalid(send, 'Missing required param: return_url and refresh_url.', returnUrl ? 'refresh_url' : 'return_url');
        return true;
      }
      links.set(accountId, { return_url: returnUrl, refresh_url: refreshUrl });
      const link: Stripe.AccountLink = {
        object: 'account_link',
        created: now(),
        expires_at: now() + 300,
        url: `${context.url()}/fake/connect/onboarding/${encodeURIComponent(accountId)}`,
      };
      send(200, link);
      return true;
    }

    if (method === 'POST' && path === '/v1/transfers') {
      const form = await readForm(request);
      const failure = control.failTransfers;
      const hang = failure === 'hang-before' || failure === 'hang-after';
      const fail = (made?: Stripe.Transfer) => {
        if (!hang) return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
        if (made) heldAnswers.push(() => send(200, made));
      };
      if (failure === 'before' || failure === 'hang-before') {
        fail();
        return true;
      }
      const params = [...form].map(([k, v]) => `${k}=${v}`).join('&');
      const known = idempotencyKey ? transferByKey.get(idempotencyKey) : undefined;
      if (known) {
        // Stripe refuses a key used again with other parameters.
        if (known.params !== params) {
          send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
            },
          });
        } else if (failure) fail(transfers.get(known.transfer.id));
        else send(200, transfers.get(known.transfer.id));
        return true;
      }
      const amount = Number(form.get('amount'));
      const destination = form.get('destination') ?? '';
      const source = form.get('source_transaction');
      if (!Number.isInteger(amount) || amount < 1) {
        invalid(send, 'Invalid positive integer', 'amount');
        return true;
      }
      const account = accounts.get(destination);
      if (!account) {
        invalid(send, `No such destination: '${destination}'`, 'destination');
        return true;
      }
      if (!account.payouts_enabled) {
        invalid(
          send,
          'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
          'destination',
        );
        return true;
      }
      if (source && !context.chargeExists(source)) {
        invalid(send, `No such charge: '${source}'`, 'source_transaction');
        return true;
      }
      const id = newId('tr');
      const transfer: Stripe.Transfer = {
        id,
        object: 'transfer',
        amount,
        amount_reversed: 0,
        balance_transaction: null,
        created: now(),
        currency: form.get('currency') ?? 'usd',
        description: form.get('description'),
        destination,
        livemode: false,
        metadata: metadataOf(form),
        reversals: { object: 'list', data: [], has_more: false, url: `/v1/transfers/${id}/reversals` },
        reversed: false,
        source_transaction: source,
        transfer_group: form.get('transfer_group'),
      };
      transfers.set(id, transfer);
      if (idempotencyKey) transferByKey.set(idempotencyKey, { transfer, params });
      if (failure) fail(transfer);
      else send(200, transfer);
      return true;
    }
    if (method === 'GET' && path === '/v1/transfers') {
      const query = new URLSearchParams((request.url ?? '').split('?')[1] ?? '');
      const group = query.get('transfer_group');
      const destination = query.get('destination');
      // Stripe lists newest first.
      const data = [...transfers.values()]
        .filter((t) => (!group || t.transfer_group === group) && (!destination || t.destination === destination))
        .reverse();
      const list: Stripe.ApiList<Stripe.Transfer> = { object: 'list', data, has_more: false, url: '/v1/transfers' };
      send(200, list);
      return true;
    }
    const transferPath = /^\/v1\/transfers\/([^/]+)$/.exec(path);
    if (method === 'GET' && transferPath) {
      const id = decodeURIComponent(transferPath[1]!);
      const transfer = transfers.get(id);
      if (transfer) send(200, transfer);
      else missing(send, 'transfer', id);
      return true;
    }
    const reversalPath = /^\/v1\/transfers\/([^/]+)\/reversals$/.exec(path);
    if (method === 'POST' && reversalPath) {
      const form = await readForm(request);
      const id = decodeURIComponent(reversalPath[1]!);
      const transfer = transfers.get(id);
      if (!transfer) {
        missing(send, 'transfer', id);
        return true;
      }
      const left = transfer.amount - transfer.amount_reversed;
      const amount = form.has('amount') ? Number(form.get('amount')) : left;
      if (!Number.isInteger(amount) || amount < 1 || amount > left) {
        invalid(send, `Amount (${amount}) is greater than the amount left to reverse (${left})`, 'amount');
        return true;
      }
      const reversal = reverse(transfer, amount, metadataOf(form));
      send(200, reversal);
      // Stripe sends transfer.reversed for every reversal, partial ones included.
      setTimeout(() => void sendEvent('transfer.reversed', transfers.get(id)!), 0);
      return true;
    }
    const disputePath = /^\/v1\/disputes\/([^/]+)$/.exec(path);
    if (method === 'GET' && disputePath) {
      const id = decodeURIComponent(disputePath[1]!);
      const dispute = disputes.get(id);
      if (dispute) send(200, dispute);
      else missing(send, 'dispute', id);
      return true;
    }
    return false;
  };

  return {
    connect,
    handle,
  };
}
