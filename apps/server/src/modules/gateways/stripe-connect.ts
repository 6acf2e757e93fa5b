import Stripe from 'stripe';
import { AppError, ErrorCode } from '../../lib/app-error.ts';
import type { GatewayAccount, GatewayDispute, GatewayTransfer, PayoutGateway } from './gateway.public.ts';
import { TransferRefusedError } from './transfer-refused.ts';

/**
 * Money out through Stripe Connect (decision 040): Express accounts onboarded by an account link,
 * separate charges and transfers (`transfer_group` the payment, `source_transaction` its charge),
 * one idempotency key per payout item. Everything is re-read from Stripe, never taken from an event.
 */

function unavailable(error: unknown): AppError {
  return new AppError(ErrorCode.UNAVAILABLE, 'The payment service is not reachable; please try again', {
    cause: error,
  });
}

function isNotFound(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && (error.statusCode === 404 || error.code === 'resource_missing');
}

function toAccount(account: Stripe.Account): GatewayAccount {
  return {
    id: account.id,
    payoutsEnabled: account.payouts_enabled ?? false,
    detailsSubmitted: account.details_submitted ?? false,
  };
}

function toTransfer(transfer: Stripe.Transfer): GatewayTransfer {
  return {
    id: transfer.id,
    amountCents: transfer.amount,
    reversedCents: transfer.amount_reversed,
    transferGroup: transfer.transfer_group ?? '',
    metadata: transfer.metadata ?? {},
  };
}

function toDispute(dispute: Stripe.Dispute): GatewayDispute {
  const intent = typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
  const evidence: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(dispute.evidence ?? {})) {
    evidence[key] =
      value === null || value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value);
  }
  const due = dispute.evidence_details?.due_by;
  return {
    id: dispute.id,
    intentId: intent ?? '',
    amountCents: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason,
    status: dispute.status,
    evidenceDueBy: due ? new Date(due * 1000) : null,
    evidence,
    metadata: dispute.metadata ?? {},
  };
}

export function createStripePayouts(stripe: Stripe): PayoutGateway {
  async function call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
    }
  }

  return {
    createAccount: (input) =>
      call(async () =>
        toAccount(
          await stripe.accounts.create(
            {
              type: 'express',
              email: input.email,
              metadata: { owner_ref: input.ownerRef },
              capabilities: { transfers: { requested: true } },
            },
            { idempotencyKey: input.idempotencyKey },
          ),
        ),
      ),

    async retrieveAccount(id) {
      try {
        return toAccount(await stripe.accounts.retrieve(id));
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
      }
    },

    createOnboardingLink: (input) =>
      call(async () => {
        const link = await stripe.accountLinks.create({
          account: input.accountId,
          type: 'account_onboarding',
          return_url: input.returnUrl,
          refresh_url: input.refreshUrl,
        });
        return { url: link.url };
      }),

    async createTransfer(input) {
      try {
        // source_transaction names a charge: the intent's latest one.
        const intent = await stripe.paymentIntents.retrieve(input.sourceIntentId);
        const charge = typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;
        const transfer = await stripe.transfers.create(
          {
            amount: input.amountCents,
            currency: input.currency,
            destination: input.accountId,
            transfer_group: input.transferGroup,
            ...(charge ? { source_transaction: charge } : {}),
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return toTransfer(transfer);
      } catch (error) {
        // A refusal (the account cannot receive, the charge cannot fund it) is for good; the rest is retried.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError ||
          error instanceof Stripe.errors.StripePermissionError
        ) {
          throw new TransferRefusedError(error.message);
        }
        throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
      }
    },

    findTransfer: (input) =>
      call(async () => {
        for await (const transfer of stripe.transfers.list({ transfer_group: input.transferGroup, limit: 100 })) {
          if (transfer.metadata?.payout_item === input.payoutItemId) return toTransfer(transfer);
        }
        return null;
      }),

    async retrieveTransfer(id) {
      try {
        return toTransfer(await stripe.transfers.retrieve(id));
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
      }
    },

    async retrieveDispute(id) {
      try {
        return toDispute(await stripe.disputes.retrieve(id));
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error instanceof Stripe.errors.StripeError ? unavailable(error) : error;
      }
    },
  };
}
