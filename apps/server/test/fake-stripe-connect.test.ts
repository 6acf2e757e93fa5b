import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeConnectionOptions } from '../src/modules/gateways/stripe-gateway.ts';
import { startFakeStripe, type FakeStripe } from './fake-stripe.ts';

/**
 * The Connect fake (fake-stripe-connect.ts) answers Stripe's own client as Stripe does, and its
 * events pass Stripe's signature check: the e2e journey of payouts and the server suites rely on it.
 */
const SECRET = 'whsec_connect_fake';
let fake: FakeStripe;
let stripe: Stripe;
let receiver: Server;
const events: Stripe.Event[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const signature = String(request.headers['stripe-signature']);
        events.push(Stripe.webhooks.constructEvent(Buffer.concat(chunks).toString('utf8'), signature, SECRET));
        response.writeHead(200).end();
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  fake = await startFakeStripe({ webhook: { url: `http://127.0.0.1:${port}/`, secret: SECRET } });
  stripe = new Stripe('sk_test_connect', { ...stripeConnectionOptions(fake.url), telemetry: false });
});

afterAll(async () => {
  await fake.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** A charged intent, as the browser's confirmation would leave it. */
async function chargedIntent(amount: number): Promise<Stripe.PaymentIntent> {
  const intent = await stripe.paymentIntents.create({ amount, currency: 'usd' });
  return fake.setStatus(intent.id, 'succeeded');
}

describe('the Connect fake against the real Stripe client', () => {
  it('onboards an Express account through its hosted page, which enables payouts and sends account.updated', async () => {
    const account = await stripe.accounts.create(
      { type: 'express', email: 'tara@example.test' },
      { idempotencyKey: 'a1' },
    );
    expect(account).toMatchObject({ object: 'account', type: 'express', payouts_enabled: false });
    expect((await stripe.accounts.create({ type: 'express' }, { idempotencyKey: 'a1' })).id).toBe(account.id);

    const link = await stripe.accountLinks.create({
      account: account.id,
      type: 'account_onboarding',
      return_url: 'http://127.0.0.1:1/back',
      refresh_url: 'http://127.0.0.1:1/again',
    });
    const page = await fetch(link.url);
    expect(await page.text()).toContain('Agree and submit');
    const submitted = await fetch(link.url, {
      method: 'POST',
      body: new URLSearchParams({ holder: 'Tara Teacher', iban: 'DE89370400440532013000' }),
      redirect: 'manual',
    });
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get('location')).toBe('http://127.0.0.1:1/back');
    expect((await stripe.accounts.retrieve(account.id)).payouts_enabled).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'account.updated', data: { object: { id: account.id } } });
  });

  it('transfers once per idempotency key, refuses a key reused with other parameters, and reverses', async () => {
    const account = await stripe.accounts.create({ type: 'express' });
    const intent = await chargedIntent(5000);
    const params: Stripe.TransferCreateParams = {
      amount: 4000,
      currency: 'usd',
      destination: account.id,
      transfer_group: `payment_${intent.id}`,
      source_transaction: intent.latest_charge as string,
      metadata: { payoutId: 'p1' },
    };
    // Not onboarded yet: Stripe refuses the destination.
    await expect(stripe.transfers.create(params, { idempotencyKey: 'p1' })).rejects.toMatchObject({
      statusCode: 400,
    });
    await fake.connect.completeOnboarding(account.id);
    const transfer = await stripe.transfers.create(params, { idempotencyKey: 'p1b' });
    expect((await stripe.transfers.create(params, { idempotencyKey: 'p1b' })).id).toBe(transfer.id);
    await expect(stripe.transfers.create({ ...params, amount: 1 }, { idempotencyKey: 'p1b' })).rejects.toMatchObject({
      type: 'StripeIdempotencyError',
    });
    expect(fake.connect.transfers.size).toBe(1);
    const listed = await stripe.transfers.list({ transfer_group: `payment_${intent.id}` });
    expect(listed.data.map((t) => t.id)).toEqual([transfer.id]);

    await stripe.transfers.createReversal(transfer.id, { amount: 1500 });
    expect(await stripe.transfers.retrieve(transfer.id)).toMatchObject({ amount_reversed: 1500, reversed: false });
    await expect.poll(() => events.at(-1)?.type).toBe('transfer.reversed');
  });

  it('raises a dispute and closes it, each with its signed event', async () => {
    const intent = await chargedIntent(2500);
    const dispute = await fake.connect.raiseDispute(intent);
    expect(events.at(-1)).toMatchObject({ type: 'charge.dispute.created', data: { object: { id: dispute.id } } });
    await fake.connect.closeDispute(dispute.id, 'lost');
    expect((await stripe.disputes.retrieve(dispute.id)).status).toBe('lost');
    expect(events.at(-1)).toMatchObject({ type: 'charge.dispute.closed' });
  });
});
