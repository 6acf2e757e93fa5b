import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import * as repo from './mail.repository.ts';

/** What the worker hands a message to: SMTP in production (mail.transport.ts). */
export type SendMail = (message: {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}) => Promise<void>;

const BATCH = 20;
/** How long a claimed message is held without a renewal; a worker that died lets it go after this. */
const DEFAULT_LEASE_MS = 2 * 60_000;
/** On stop, how long the message being sent may take before it is released instead (SHUTDOWN_TIMEOUT_MS is 10 s). */
const STOP_GRACE_MS = 5_000;
const FIRST_RETRY_MS = 15_000;
const MAX_RETRY_MS = 15 * 60_000;

/** 15 s, 30 s, 1 min, … up to 15 min between attempts: an outage delays mail, never drops it. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

export interface MailWorker {
  /** Sends what is due now; resolves with how many were sent. */
  runOnce(): Promise<number>;
  start(): void;
  /**
   * Stops: the message being sent is finished (or released after a few seconds), the rest of the
   * batch is released at once for another instance, so no mail waits out a lease after a restart.
   */
  stop(): Promise<void>;
}

/**
 * Sends the outbox, each message once (decision 032). Safe on several instances: a claim skips
 * what another worker holds, and every lease is set, renewed and compared on the database's
 * clock — never this process's — so an instance whose clock is ahead does not take a message
 * another still holds, and one whose clock is behind still sends. A lease is renewed before each
 * message and every quarter-lease while a batch runs, so a slow SMTP server never lets a batch
 * outlive its lease; a message whose lease was lost (the process stalled longer than the lease) is
 * not sent. Only a crash (or a send cut short at stop) between the SMTP answer and marking the row
 * sent can send a message again, after its lease, under the same Message-ID, which receiving
 * servers use to drop the duplicate: at-least-once across a crash, exactly once otherwise.
 */
export function createMailWorker(options: {
  db: Db;
  send: SendMail;
  log: FastifyBaseLogger;
  intervalMs: number;
  /** Default 2 minutes; tests shorten it. */
  leaseMs?: number;
}): MailWorker {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;
  /** Resolved by stop(): the batch ends after the message being sent. */
  let signalStop = () => {};
  let stopRequested = new Promise<void>((resolve) => (signalStop = resolve));

  async function sendDue(): Promise<number> {
    const claimed = await repo.claimDue(options.db, { leaseMs, limit: BATCH });
    if (claimed.length === 0) return 0;
    /** Claims still held, by id: a claim is its row's attempt number. */
    const held = new Map(claimed.map((mail) => [mail.id, mail.attempts]));
    const renew = async () => {
      if (held.size === 0) return;
      const kept = await repo.renewLeases(
        options.db,
        [...held].map(([id, attempts]) => ({ id, attempts })),
        leaseMs,
      );
      for (const id of held.keys()) if (!kept.includes(id)) held.delete(id);
    };
    /** The heartbeat's renewal under way: awaited before a row is marked, so none renews a row after its mark. */
    let renewing: Promise<void> = Promise.resolve();
    const heartbeat = setInterval(() => {
      renewing = renew().catch((error: unknown) => options.log.warn({ err: error }, 'mail lease renewal failed'));
    }, leaseMs / 4);
    heartbeat.unref();
    let sent = 0;
    try {
      for (const mail of claimed) {
        if (stopped) break;
        // Still ours, for a whole lease from now (database clock): otherwise another worker may send it.
        if (
          !held.has(mail.id) ||
          !(await repo.renewLeases(options.db, [{ id: mail.id, attempts: mail.attempts }], leaseMs)).length
        ) {
          held.delete(mail.id);
          options.log.warn({ mailId: mail.id }, 'mail lease lost before sending; left to its new holder');
          continue;
        }
        const sending = options.send({
          id: mail.id,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        const outcome = await settleOrStop(sending);
        if (outcome === 'stopped') {
          options.log.warn({ mailId: mail.id }, 'mail send cut short by shutdown; released for a retry');
          break;
        }
        held.delete(mail.id);
        await renewing;
        if (outcome.ok) {
          await repo.markSent(options.db, mail.id);
          sent += 1;
        } else {
          const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
          await repo.markFailed(options.db, mail.id, {
            error: message.slice(0, 500),
            retryInMs: retryDelayMs(mail.attempts),
          });
          options.log.warn(
            { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, err: message },
            'mail not sent; will retry',
          );
        }
      }
    } finally {
      clearInterval(heartbeat);
      await renewing;
      // What this batch did not get to (a stop, a lost lease) is released at once, not in a lease.
      if (held.size > 0)
        await repo.release(
          options.db,
          [...held].map(([id, attempts]) => ({ id, attempts })),
        );
    }
    return sent;
  }

  /** The send's outcome, or 'stopped' when stop() came and the send outlasted STOP_GRACE_MS. */
  async function settleOrStop(
    sending: Promise<void>,
  ): Promise<{ ok: true } | { ok: false; error: unknown } | 'stopped'> {
    const outcome = sending.then(
      () => ({ ok: true as const }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    let timer: NodeJS.Timeout | undefined;
    const cutShort = stopRequested.then(
      () =>
        new Promise<'stopped'>((resolve) => {
          timer = setTimeout(() => resolve('stopped'), STOP_GRACE_MS);
          timer.unref();
        }),
    );
    try {
      return await Promise.race([outcome, cutShort]);
    } finally {
      clearTimeout(timer);
    }
  }

  function runOnce(): Promise<number> {
    running ??= sendDue().finally(() => {
      running = null;
    });
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => options.log.error({ err: error }, 'mail worker failed'))
        .finally(schedule);
    }, options.intervalMs);
    timer.unref();
  }

  return {
    runOnce,
    start() {
      if (stopped) stopRequested = new Promise<void>((resolve) => (signalStop = resolve));
      stopped = false;
      if (!timer) schedule();
    },
    async stop() {
      stopped = true;
      signalStop();
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
