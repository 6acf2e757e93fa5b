import { randomUUID } from 'node:crypto';
import { CURRENCY, PRICE_MIN_CENTS } from '@skillhive/shared/rules/constants';
import { COUPON_MESSAGES } from '@skillhive/shared/rules/coupons';
import type { CreatePaymentIntentBody, PaymentIntentResponse } from '@skillhive/shared/contracts/payments';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { conflict } from '../../lib/app-error.ts';
import type { Viewer } from '../../lib/authorize.ts';
import { couponForCart, couponRefusal, type CartCoupon } from '../coupons/coupons.service.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import * as repo from './checkout.repository.ts';
import { settleCharge, type PaymentsDeps } from './fulfilment.service.ts';
import { COUPON_METADATA_KEY, MAX_CART_LINES, encodeCart, sameSet } from './intent-metadata.ts';
import { NO_ADJUSTMENTS, priceCart, type PricedCart, type PriceableLine } from './pricing.public.ts';

/** How many times a create retries after losing a reservation race before asking the client to. */
const CREATE_ATTEMPTS = 3;

class ReservationLost extends Error {
  override name = 'ReservationLost';
}

function intentAnswer(
  deps: PaymentsDeps,
  row: repo.IntentRow,
  priced: PricedCart<PriceableLine & { id: string }>,
  coupon: CartCoupon | null,
): PaymentIntentResponse {
  const subtotalCents = priced.lines.reduce((sum, line) => sum + line.listCents, 0);
  return {
    clientSecret: row.clientSecret,
    amount: row.amountCents,
    currency: row.currency,
    gateway: deps.gateway.name,
    publishableKey: deps.gateway.publishableKey,
    cartIds: [...row.cartIds].sort(),
    subtotalCents,
    discountCents: subtotalCents - priced.totalCents,
    coupon: coupon ? { code: coupon.code, kind: coupon.kind, value: coupon.value } : null,
    lines: priced.lines.map((line) => ({
      _id: line.id,
      classId: line.classId,
      listCents: line.listCents,
      discountCents: line.discountCents,
      paidCents: line.paidCents,
    })),
  };
}

/**
 * POST /api/create-payment-intent (spec §4 "payment intent requested for the total"). The total
 * is the caller's own payable pending enrollments in integer cents — lines of a class that is no
 * longer accepted are left out (decision 010) — and a price in the body is never read (DESIGN
 * §1.3). One charge per cart, ever (decision 010):
 *
 * - an open intent of the caller for exactly this cart is answered again (a double click, a
 *   second tab with the same cart);
 * - every other open intent of the caller is cancelled at the gateway first, so it can never be
 *   charged; one that was charged meanwhile is settled (fulfilled, or refunded) and the cart is
 *   read again;
 * - each line of a section with seats holds one (decision 042), or the cart is refused (409);
 * - the new intent is recorded and reserves its lines in one transaction; a concurrent create that
 *   reserved one of them first wins, and this one cancels its own intent and starts over.
 */
export async function createPaymentIntent(
  deps: PaymentsDeps & { seatHoldMinutes: number },
  viewer: Viewer,
  body?: CreatePaymentIntentBody,
): Promise<PaymentIntentResponse> {
  const couponCode = body?.couponCode?.trim() || null;
  for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
    const pending = await enrollments.getPendingCart(deps.db, viewer.id);
    // Each line at its class's approved price now, not the price it was carted at (DESIGN §1.3).
    const cart = pending
      .filter(enrollments.isPayable)
      .map((line) => ({ ...line, cartedCents: line.priceCents, priceCents: line.currentPriceCents }));
    if (cart.length === 0)
      throw conflict(pending.length > 0 ? PAYMENT_MESSAGES.nothingPayable : PAYMENT_MESSAGES.emptyCart);
    if (cart.length > MAX_CART_LINES) throw conflict(PAYMENT_MESSAGES.cartTooLarge);
    const ids = cart.map((line) => line.id).sort();
    // A refused code is answered before any open intent is touched: the student keeps paying without it.
    const coupon = couponCode
      ? await couponForCart(deps.db, { code: couponCode, studentId: viewer.id, cart, now: deps.now() })
      : null;
    // The one pricing function (pricing.public.ts): the fulfilment and the last check reprice the same way.
    const priced = priceCart(cart, coupon ? [coupon.adjustment] : NO_ADJUSTMENTS);
    const amountCents = priced.totalCents;
    // Every payment is a charge of at least the smallest amount (decision 019): Stripe refuses less.
    if (coupon && amountCents < PRICE_MIN_CENTS) throw couponRefusal(COUPON_MESSAGES.belowMinimum);
    const couponId = coupon?.id ?? null;
    // Every line of a section with seats holds one for another SEAT_HOLD_MINUTES, or nothing is
    // charged (decision 042); the same cart's intent answered again renews its holds too. A cart of
    // classes without sections has no seat to hold, and skips the transaction (the fulfilment
    // checks seats again under its locks).
    if (cart.some((line) => line.sectionId !== null)) {
      await enrollments.holdSeatsForCart(deps.db, {
        studentId: viewer.id,
        ids,
        now: deps.now(),
        holdMinutes: deps.seatHoldMinutes,
      });
    }

    const open = await repo.listOpenIntentsOfStudent(deps.db, viewer.id);
    const same = open.find(
      (row) => row.amountCents === amountCents && row.couponId === couponId && sameSet(row.cartIds, ids),
    );
    let charged = false;
    for (const other of open) {
      if (other !== same && (await closeOpenIntent(deps, other)) === 'charged') charged = true;
    }
    if (charged) continue; // a line may be paid now: read the cart again
    if (same) return intentAnswer(deps, same, priced, coupon);

    // Outside any transaction: PGlite is one connection, and a network call must not hold it (DESIGN §2).
    const intent = await deps.gateway.createIntent({
      amountCents,
      currency: CURRENCY,
      customerRef: viewer.id,
      metadata: { ...encodeCart(ids), ...(couponId ? { [COUPON_METADATA_KEY]: couponId } : {}) },
      idempotencyKey: `skillhive-intent-${randomUUID()}`,
    });
    const row: repo.IntentRow = {
      id: intent.id,
      gateway: deps.gateway.name,
      studentId: viewer.id,
      clientSecret: intent.clientSecret,
      amountCents,
      currency: CURRENCY,
      cartIds: ids,
      couponId,
      status: 'open',
      paymentId: null,
      nextCheckAt: deps.now(),
      leaseUntil: null,
      createdAt: deps.now(),
      updatedAt: deps.now(),
    };
    try {
      await deps.db.transaction(async (tx) => {
        await repo.insertIntent(tx, row);
        const held = await enrollments.reserveLines(tx, { studentId: viewer.id, ids, intentId: intent.id });
        if (held !== ids.length) throw new ReservationLost();
        // The lines keep the price this intent charges, so its fulfilment prices them the same.
        const repriced = cart.filter((line) => line.priceCents !== line.cartedCents);
        const written = await enrollments.setReservedPrices(tx, { intentId: intent.id, lines: repriced });
        if (written !== repriced.length) throw new ReservationLost();
      });
      return intentAnswer(deps, row, priced, coupon);
    } catch (error) {
      if (!(error instanceof ReservationLost)) throw error;
      // Another create reserved a line first: this intent was never shown to anyone; cancel it.
      await deps.gateway.cancelIntent(intent.id);
    }
  }
  throw conflict(PAYMENT_MESSAGES.reservedElsewhere);
}

/**
 * Takes an open intent out of play: cancelled at the gateway, then closed here and its lines
 * freed. When the gateway says it was charged after all, the charge is settled instead.
 */
async function closeOpenIntent(deps: PaymentsDeps, row: repo.IntentRow): Promise<'canceled' | 'charged'> {
  const after = await deps.gateway.cancelIntent(row.id);
  if (after?.status === 'succeeded') {
    await settleCharge(deps, after);
    return 'charged';
  }
  if (after && after.status !== 'canceled') throw conflict(PAYMENT_MESSAGES.paymentInProgress);
  await markCanceled(deps, row.id);
  return 'canceled';
}

async function markCanceled(deps: PaymentsDeps, intentId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (await repo.setIntentStatus(tx, intentId, ['open'], 'canceled', { now: deps.now() })) {
      await enrollments.releaseLines(tx, intentId);
    }
  });
}
