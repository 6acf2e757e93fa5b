import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { GatewayEvent, PaymentGateway } from '../gateways/gateway.public.ts';
import { recordDispute } from './disputes.ts';
import { refreshAccount } from './earnings.service.ts';
import { recordTransferReversal } from './payouts.ts';

/**
 * What other modules call of the earnings ledger (decisions 015, 039): checkout writes a sale in
 * the payment's transaction, refunds claw a line's share back in the refund's, the gateway's
 * webhook hands over the money-out events (connected accounts, transfer reversals, disputes), and
 * the dashboards' homes read their money figures.
 */
export { type LedgerSettings, type SaleLine, clawBackLines, recordSale } from './ledger.ts';
/** The money figures of the teacher and admin homes (the stats module reads them in its snapshot). */
export {
  type PlatformMoney,
  type TeacherBuckets,
  platformMoney,
  platformMoneyByMonth,
  teacherBuckets,
  teacherEarnedByClass,
  teacherEarnedByMonth,
} from './figures.repository.ts';

const MONEY_OUT_EVENTS = new Set([
  'account.updated',
  'transfer.reversed',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
]);

export function isMoneyOutEvent(type: string): boolean {
  return MONEY_OUT_EVENTS.has(type);
}

/** A verified money-out event: its object is re-read from the gateway, and each handler is safe to run twice. */
export async function handleMoneyOutEvent(
  deps: { db: Db; gateway: PaymentGateway; now: () => Date; log: FastifyBaseLogger },
  event: GatewayEvent,
): Promise<void> {
  const id = event.objectId;
  if (!id) return;
  if (event.type === 'account.updated') await refreshAccount(deps, id);
  else if (event.type === 'transfer.reversed') {
    await recordTransferReversal({ ...deps, minimumCents: 1 }, id);
  } else await recordDispute(deps, id);
}
