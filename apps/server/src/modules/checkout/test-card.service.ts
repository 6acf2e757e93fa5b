import type { ConfirmCardBody, ConfirmCardResponse } from '@skillhive/shared/contracts/payments';
import { PAYMENT_MESSAGES, isCardExpired } from '@skillhive/shared/rules/cards';
import { AppError, ErrorCode, conflict, forbidden } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { couponOfIntentStillUsable } from '../coupons/coupons.service.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import type { ConfirmOutcome, GatewayIntent, TestGateway, TestIntent } from '../gateways/gateway.public.ts';
import * as repo from './checkout.repository.ts';
import { type PaymentsDeps, type Settlement, refundedMessage, settleCharge } from './fulfilment.service.ts';
import { couponIdOf, decodeCart } from './intent-metadata.ts';
import { NO_ADJUSTMENTS, priceCart } from './pricing.public.ts';

// ---- The test gateway's card form --------------------------------------------------------------

type TestDeps = PaymentsDeps & { gateway: TestGateway };

async function ownIntent(deps: TestDeps, viewer: Viewer, clientSecret: string): Promise<TestIntent> {
  const intent = await deps.gateway.findIntentByClientSecret(clientSecret);
  if (!intent) throw new AppError(ErrorCode.NOT_FOUND, PAYMENT_MESSAGES.intentNotFound);
  if (intent.customerRef !== viewer.id) throw forbidden(PAYMENT_MESSAGES.intentNotYours);
  if (intent.status === 'canceled') throw conflict(PAYMENT_MESSAGES.intentCanceled);
  return intent;
}

/**
 * Refuses to charge for a cart that can no longer be recorded: the intent must be open in our
 * record, and every line pending, of a live class, reserved for this very intent (decision 010),
 * and totalling the amount. A create that cancels this intent meanwhile is caught by the gateway
 * itself: its cancel and this charge are one conditional update each, and only one of them wins.
 */
async function assertStillPayable(deps: TestDeps, intent: GatewayIntent): Promise<void> {
  const ours = await repo.findIntent(deps.db, intent.id, { lock: false });
  if (ours && ours.status !== 'open') throw conflict(PAYMENT_MESSAGES.intentCanceled);
  const ids = decodeCart(intent.metadata);
  if (!ids) throw conflict(PAYMENT_MESSAGES.cartMismatch);
  const lines = await enrollments.getCartLines(deps.db, intent.customerRef, ids, { lock: false });
  // The coupon must still be usable by this student: better refused now than charged and refunded.
  const couponId = couponIdOf(intent.metadata);
  if (couponId === null) throw conflict(PAYMENT_MESSAGES.cartMismatch);
  const coupon =
    couponId && lines.length > 0
      ? await couponOfIntentStillUsable(deps.db, {
          couponId,
          studentId: intent.customerRef,
          cart: lines,
          now: deps.now(),
        })
      : null;
  const { totalCents } = priceCart(lines, coupon ? [coupon.adjustment] : NO_ADJUSTMENTS);
  if (
    lines.length !== ids.length ||
    lines.some((line) => line.status !== 'pending') ||
    totalCents !== intent.amountCents
  ) {
    throw conflict(PAYMENT_MESSAGES.cartChanged);
  }
  if (!lines.every(enrollments.isPayable)) throw conflict(PAYMENT_MESSAGES.notPayable);
  if (lines.some((line) => line.reservedBy !== intent.id)) throw conflict(PAYMENT_MESSAGES.reservedElsewhere);
  // Better refused now than charged and refunded: a hold that expired while its section filled up.
  await enrollments.assertSeatsFree(deps.db, lines, deps.now());
}

/** A declined card frees the seats its cart held (decision 042). */
async function releaseSeatsOnDecline(deps: TestDeps, intent: GatewayIntent, outcome: ConfirmOutcome): Promise<void> {
  if (outcome.status !== 'declined') return;
  const ids = decodeCart(intent.metadata);
  if (ids) await enrollments.releaseSeatHolds(deps.db, intent.customerRef, [...ids]);
}

/**
 * A charge the test gateway just made is settled at once, as Stripe's webhook settles one, so a
 * closed browser still ends paid; the client's POST /api/payments then answers the same id. A
 * charge that cannot be fulfilled is refunded and the caller told so (409). Any other failure is
 * logged, not thrown: the card was charged, and the reconciler finishes the job.
 */
async function recordCharge(deps: TestDeps, intent: TestIntent): Promise<ConfirmCardResponse> {
  let settled: Settlement | null = null;
  try {
    const charged = await deps.gateway.retrieveIntent(intent.id);
    if (charged) settled = await settleCharge(deps, charged);
  } catch (error) {
    deps.log.warn({ err: error, transactionId: intent.id }, 'test gateway charge could not be recorded');
  }
  if (settled?.outcome === 'refunded') throw conflict(refundedMessage(settled.reason));
  return { status: 'succeeded', transactionId: intent.id };
}

function answerOutcome(outcome: ConfirmOutcome): ConfirmCardResponse | 'succeeded' {
  if (outcome.status === 'canceled') throw conflict(PAYMENT_MESSAGES.intentCanceled);
  if (outcome.status === 'declined') {
    const code = outcome.code === 'insufficient_funds' ? ErrorCode.INSUFFICIENT_FUNDS : ErrorCode.CARD_DECLINED;
    throw new AppError(code, outcome.message);
  }
  return outcome.status === 'requires_action' ? { status: 'requires_action' } : 'succeeded';
}

/** POST /api/test-gateway/confirm: Stripe's test cards, checked as Stripe checks them. */
export async function confirmTestCard(
  deps: TestDeps,
  viewer: Viewer,
  body: ConfirmCardBody,
): Promise<ConfirmCardResponse> {
  const intent = await ownIntent(deps, viewer, body.clientSecret);
  if (intent.status === 'succeeded') return recordCharge(deps, intent);
  if (intent.refunded) throw conflict(PAYMENT_MESSAGES.refunded);
  if (isCardExpired(body.expMonth, body.expYear, deps.now())) {
    throw new AppError(ErrorCode.VALIDATION, PAYMENT_MESSAGES.expired, {
      fields: { expYear: PAYMENT_MESSAGES.expired },
    });
  }
  await assertStillPayable(deps, intent);
  const outcome = await deps.gateway.confirmCard(intent.id, body.cardNumber);
  await releaseSeatsOnDecline(deps, intent, outcome);
  const answer = answerOutcome(outcome);
  return answer === 'succeeded' ? recordCharge(deps, intent) : answer;
}

/** POST /api/test-gateway/authenticate: the 3-D Secure step; declining it fails the payment. */
export async function authenticateTestCard(
  deps: TestDeps,
  viewer: Viewer,
  body: { clientSecret: string; approve: boolean },
): Promise<ConfirmCardResponse> {
  const intent = await ownIntent(deps, viewer, body.clientSecret);
  if (intent.status === 'succeeded') return recordCharge(deps, intent);
  if (intent.status !== 'requires_action') throw conflict(PAYMENT_MESSAGES.noActionRequired);
  if (body.approve) await assertStillPayable(deps, intent);
  const outcome = await deps.gateway.authenticate(intent.id, body.approve);
  await releaseSeatsOnDecline(deps, intent, outcome);
  const answer = answerOutcome(outcome);
  return answer === 'succeeded' ? recordCharge(deps, intent) : answer;
}
