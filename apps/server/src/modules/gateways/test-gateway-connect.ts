import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  testGatewayAccounts as accounts,
  testGatewayDisputes as disputes,
  testGatewayIntents as intents,
  testGatewayTransfers as transfers,
} from '../../db/schema/gateways.ts';
import type { GatewayAccount, GatewayDispute, GatewayTransfer, PayoutGateway } from './gateway.public.ts';
import { TransferRefusedError } from './transfer-refused.ts';

/**
 * The built-in test gateway's Connect (decision 040), offline, as it simulates cards: Express-like
 * accounts onboarded on a page the server serves (`/test-gateway/connect/:id`), transfers that
 * honour idempotency keys and never exceed the charge they come from, and disputes a test or an
 * admin raises and settles. Its state lives in its own tables, as Stripe keeps its own.
 */
export interface TestConnect extends PayoutGateway {
  /** The simulated onboarding page was completed: payouts are enabled on the account. */
  completeOnboarding(accountId: string): Promise<GatewayAccount | null>;
  /** A chargeback on an intent's charge (all of it, or `amountCents`), naming our lines in its metadata. */
  raiseDispute(input: {
    intentId: string;
    amountCents: number;
    reason: string;
    metadata: Record<string, string>;
  }): Promise<GatewayDispute>;
  /** Closes a dispute as the bank decided; null when it does not exist. */
  closeDispute(id: string, outcome: 'won' | 'lost'): Promise<GatewayDispute | null>;
  /** Takes back part of a transfer (Stripe's transfer reversal). */
  reverseTransfer(id: string, amountCents: number): Promise<GatewayTransfer | null>;
  /** Every transfer made, for tests that prove none was made twice. */
  listTransfers(): Promise<GatewayTransfer[]>;
}

const DISPUTE_EVIDENCE_DAYS = 7;

function toTransfer(row: typeof transfers.$inferSelect): GatewayTransfer {
  return {
    id: row.id,
    amountCents: row.amountCents,
    reversedCents: row.reversedCents,
    transferGroup: row.transferGroup,
    metadata: row.metadata,
  };
}

function toDispute(row: typeof disputes.$inferSelect, currency: string): GatewayDispute {
  return {
    id: row.id,
    intentId: row.intentId,
    amountCents: row.amountCents,
    currency,
    reason: row.reason,
    status: row.status,
    evidenceDueBy: row.evidenceDueBy,
    evidence: { customer_name: null, product_description: null, uncategorized_text: null },
    metadata: row.metadata,
  };
}

export function createTestConnect(db: Db, now: () => Date): TestConnect {
  async function account(id: string): Promise<GatewayAccount | null> {
    const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
    return row
      ? { id: row.id, payoutsEnabled: row.payoutsEnabled === 'true', detailsSubmitted: row.payoutsEnabled === 'true' }
      : null;
  }

  async function dispute(id: string): Promise<GatewayDispute | null> {
    const [row] = await db.select().from(disputes).where(eq(disputes.id, id));
    if (!row) return null;
    const [intent] = await db.select({ currency: intents.currency }).from(intents).where(eq(intents.id, row.intentId));
    return toDispute(row, intent?.currency ?? 'usd');
  }

  return {
    async createAccount(input) {
      // One account per owner, like an idempotency key: a second call answers the first account.
      const id = `acct_test_${createHash('sha256').update(input.ownerRef).digest('base64url').slice(0, 16)}`;
      await db.insert(accounts).values({ id, ownerRef: input.ownerRef }).onConflictDoNothing();
      return (await account(id))!;
    },

    retrieveAccount: account,

    async createOnboardingLink(input) {
      const query = new URLSearchParams({ return_url: input.returnUrl, refresh_url: input.refreshUrl });
      return { url: `/test-gateway/connect/${encodeURIComponent(input.accountId)}?${query.toString()}` };
    },

    async completeOnboarding(accountId) {
      await db.update(accounts).set({ payoutsEnabled: 'true', updatedAt: now() }).where(eq(accounts.id, accountId));
      return account(accountId);
    },

    async createTransfer(input) {
      return db.transaction(async (tx) => {
        // The charge's row is the lock: two transfers from one charge never together exceed it.
        const [intent] = await tx.select().from(intents).where(eq(intents.id, input.sourceIntentId)).for('update');
        const [known] = await tx.select().from(transfers).where(eq(transfers.idempotencyKey, input.idempotencyKey));
        if (known) return toTransfer(known);
        const [dest] = await tx.select().from(accounts).where(eq(accounts.id, input.accountId));
        if (!dest || dest.payoutsEnabled !== 'true')
          throw new TransferRefusedError('The account cannot receive transfers');
        if (!intent || intent.status !== 'succeeded')
          throw new TransferRefusedError('The source charge did not succeed');
        const sent = await tx
          .select({ amountCents: transfers.amountCents, reversedCents: transfers.reversedCents })
          .from(transfers)
          .where(eq(transfers.sourceTransaction, input.sourceIntentId));
        const used = sent.reduce((sum, t) => sum + t.amountCents - t.reversedCents, 0);
        if (used + input.amountCents > intent.amountCents) {
          throw new TransferRefusedError('The transfer exceeds what is left of its source charge');
        }
        const [row] = await tx
          .insert(transfers)
          .values({
            id: `tr_test_${randomBytes(12).toString('base64url')}`,
            accountId: input.accountId,
            amountCents: input.amountCents,
            currency: input.currency,
            transferGroup: input.transferGroup,
            sourceTransaction: input.sourceIntentId,
            idempotencyKey: input.idempotencyKey,
            metadata: input.metadata,
          })
          .returning();
        return toTransfer(row!);
      });
    },

    async findTransfer(input) {
      const rows = await db.select().from(transfers).where(eq(transfers.transferGroup, input.transferGroup));
      const row = rows.find((t) => t.metadata.payout_item === input.payoutItemId);
      return row ? toTransfer(row) : null;
    },

    async retrieveTransfer(id) {
      const [row] = await db.select().from(transfers).where(eq(transfers.id, id));
      return row ? toTransfer(row) : null;
    },

    async reverseTransfer(id, amountCents) {
      const [row] = await db.select().from(transfers).where(eq(transfers.id, id));
      if (!row) return null;
      const reversedCents = Math.min(row.amountCents, row.reversedCents + amountCents);
      await db.update(transfers).set({ reversedCents }).where(eq(transfers.id, id));
      return { ...toTransfer(row), reversedCents };
    },

    async listTransfers() {
      return (await db.select().from(transfers)).map(toTransfer);
    },

    retrieveDispute: dispute,

    async raiseDispute(input) {
      const id = `dp_test_${randomBytes(12).toString('base64url')}`;
      await db.insert(disputes).values({
        id,
        intentId: input.intentId,
        amountCents: input.amountCents,
        reason: input.reason,
        status: 'needs_response',
        metadata: input.metadata,
        evidenceDueBy: new Date(now().getTime() + DISPUTE_EVIDENCE_DAYS * 86_400_000),
      });
      return (await dispute(id))!;
    },

    async closeDispute(id, outcome) {
      await db
        .update(disputes)
        .set({ status: outcome })
        .where(and(eq(disputes.id, id), eq(disputes.status, 'needs_response')));
      return dispute(id);
    },
  };
}
