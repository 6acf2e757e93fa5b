import { AppError } from '../../lib/app-error.ts';
import { handleMoneyOutEvent, isMoneyOutEvent } from '../earnings/earnings.public.ts';
import { HANDLED_EVENT_TYPES, type GatewayEvent } from '../gateways/gateway.public.ts';
import { releaseSeatHolds } from '../enrollments/enrollments.service.ts';
import { recordGatewayRefunds } from '../refunds/refunds.service.ts';
import * as repo from './checkout.repository.ts';
import { type PaymentsDeps, settleCharge } from './fulfilment.service.ts';

// ---- Webhooks ----------------------------------------------------------------------------------

/**
 * A verified gateway event (STYLE.md "Webhooks"): only allow-listed types are acted on; an event
 * id seen before is acknowledged without acting again; the intent is re-read from the gateway
 * rather than trusted from the event body. Business refusals (a cart that changed) are logged and
 * acknowledged — retrying cannot fix them — while unexpected failures throw, so the gateway retries.
 */
export async function handleGatewayEvent(
  deps: PaymentsDeps,
  event: GatewayEvent,
): Promise<{ received: true; duplicate?: boolean }> {
  if (!HANDLED_EVENT_TYPES.has(event.type)) return { received: true };
  if (await repo.isEventRecorded(deps.db, event.id)) return { received: true, duplicate: true };

  if (event.type === 'payment_intent.succeeded' && event.intentId) {
    const intent = await deps.gateway.retrieveIntent(event.intentId);
    if (intent?.status === 'succeeded') {
      try {
        const settled = await settleCharge(deps, intent);
        deps.log.info({ eventId: event.id, transactionId: intent.id, ...settled }, 'payment settled by webhook');
      } catch (error) {
        if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
        deps.log.warn({ err: error, eventId: event.id, transactionId: intent.id }, 'webhook payment not recorded');
      }
    } else {
      deps.log.warn(
        { eventId: event.id, intentId: event.intentId, status: intent?.status },
        'webhook intent not fulfillable',
      );
    }
  } else if (event.type === 'charge.refunded' && event.intentId) {
    // A refund made in Stripe's dashboard, or ours echoed back: recorded once.
    await recordGatewayRefunds(deps, event.intentId);
  } else if (isMoneyOutEvent(event.type)) {
    // Connected accounts, transfer reversals and disputes belong to the earnings ledger (decision 040).
    await handleMoneyOutEvent(deps, event);
  } else {
    deps.log.info({ eventId: event.id, type: event.type, intentId: event.intentId }, 'payment failed at the gateway');
    // A declined card frees the seats its cart held (decision 042).
    if (event.type === 'payment_intent.payment_failed' && event.intentId) {
      const ours = await repo.findIntent(deps.db, event.intentId, { lock: false });
      if (ours) await releaseSeatHolds(deps.db, ours.studentId, ours.cartIds);
    }
  }

  const fresh = await repo.recordEvent(deps.db, { id: event.id, type: event.type });
  return fresh ? { received: true } : { received: true, duplicate: true };
}
