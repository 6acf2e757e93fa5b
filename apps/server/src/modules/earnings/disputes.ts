import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import * as enrollments from '../enrollments/enrollments.service.ts';
import type { GatewayDispute, PaymentGateway } from '../gateways/gateway.public.ts';
import * as disputeRepo from './disputes.repository.ts';
import * as repo from './earnings.repository.ts';
import { clawBackLines, freezeLines, unfreezeLines } from './ledger.ts';

/**
 * Chargebacks (decision 039): `charge.dispute.created` freezes the disputed lines' shares,
 * `charge.dispute.closed` lost refunds those lines (the student loses access, the shares are clawed
 * back), won releases them. The dispute is re-read from the gateway and stored as it says; every
 * step is safe to run twice (the gateway's dispute id is unique, and each step checks the state).
 */

export interface DisputeDeps {
  db: Db;
  gateway: PaymentGateway;
  now: () => Date;
  log: FastifyBaseLogger;
}

const CLOSED = new Set(['won', 'lost', 'warning_closed']);

/** The disputed lines: the ones the gateway's metadata names (test gateway), else every line of the charge that still earns. */
async function disputedLines(db: Db, dispute: GatewayDispute): Promise<repo.LineRow[]> {
  const lines = await repo.listLinesOfPaymentTx(db, dispute.intentId);
  const named = (dispute.metadata.enrollment_ids ?? '').split(',').filter(Boolean);
  return named.length > 0
    ? lines.filter((line) => named.includes(line.enrollmentId))
    : lines.filter((l) => !l.refundedAt);
}

/** Records a dispute the gateway knows (created or updated) and freezes its lines; closes it when the gateway says it closed. */
export async function recordDispute(
  deps: DisputeDeps,
  gatewayDisputeId: string,
): Promise<disputeRepo.DisputeRow | null> {
  const dispute = await deps.gateway.retrieveDispute(gatewayDisputeId);
  if (!dispute) return null;
  const lines = await disputedLines(deps.db, dispute);
  if (lines.length === 0) {
    deps.log.warn(
      { dispute: dispute.id, intent: dispute.intentId },
      'dispute on a charge with no ledger lines: ignored',
    );
    return null;
  }
  const now = deps.now();
  const enrollmentIds = lines.map((line) => line.enrollmentId);
  await deps.db.transaction(async (tx) => {
    const inserted = await disputeRepo.insertDispute(tx, {
      gatewayDisputeId: dispute.id,
      paymentId: lines[0]!.paymentId,
      transactionId: dispute.intentId,
      enrollmentIds,
      amountCents: dispute.amountCents,
      currency: dispute.currency,
      reason: dispute.reason,
      gatewayStatus: dispute.status,
      evidenceDueBy: dispute.evidenceDueBy,
      evidence: dispute.evidence,
      createdAt: now,
    });
    if (inserted) await freezeLines(tx, { enrollmentIds, disputeId: inserted.id, now });
  });
  if (CLOSED.has(dispute.status)) return closeDispute(deps, dispute);
  const row = await disputeRepo.findDisputeByGatewayId(deps.db, dispute.id);
  if (row && row.status === 'open') {
    await disputeRepo.updateDispute(deps.db, row.id, {
      gatewayStatus: dispute.status,
      evidenceDueBy: dispute.evidenceDueBy,
      evidence: dispute.evidence,
    });
  }
  return disputeRepo.findDisputeByGatewayId(deps.db, dispute.id);
}

/** The gateway closed a dispute: lost → the lines are refunded and their shares clawed back; won → released. */
async function closeDispute(deps: DisputeDeps, dispute: GatewayDispute): Promise<disputeRepo.DisputeRow | null> {
  const now = deps.now();
  const lost = dispute.status === 'lost';
  await deps.db.transaction(async (tx) => {
    const row = await disputeRepo.findDisputeByGatewayId(tx, dispute.id, { lock: true });
    if (!row || row.status !== 'open') return;
    if (lost) {
      // The bank gave the money back: the lines give no access any more, as after a refund.
      await enrollments.markRefunded(tx, row.enrollmentIds, now);
      await clawBackLines(tx, { enrollmentIds: row.enrollmentIds, now, kind: 'dispute_lost', disputeId: row.id });
    } else {
      await unfreezeLines(tx, { enrollmentIds: row.enrollmentIds, disputeId: row.id, now });
    }
    await disputeRepo.updateDispute(tx, row.id, {
      status: lost ? 'lost' : 'won',
      gatewayStatus: dispute.status,
      evidence: dispute.evidence,
      closedAt: now,
    });
  });
  return disputeRepo.findDisputeByGatewayId(deps.db, dispute.id);
}
