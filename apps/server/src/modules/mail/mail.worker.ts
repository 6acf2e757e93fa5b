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
/** How long a claimed message is held; a worker that died lets it go after this. */
const LEASE_MS = 2 * 60_000;
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
  stop(): Promise<void>;
}

/**
 * Sends the outbox. Safe on several instances (claimDue skips what another worker holds); a crash
 * after a commit loses nothing (the row waits), and a crash between the SMTP answer and marking
 * the row sent can send that one message again after its lease, under the same Message-ID, which
 * receiving servers use to drop the duplicate.
 */
export function createMailWorker(options: {
  db: Db;
  send: SendMail;
  log: FastifyBaseLogger;
  intervalMs: number;
  now?: () => Date;
}): MailWorker {
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;

  async function sendDue(): Promise<number> {
    const started = now();
    const claimed = await repo.claimDue(options.db, {
      now: started,
      lockedUntil: new Date(started.getTime() + LEASE_MS),
      limit: BATCH,
    });
    let sent = 0;
    for (const mail of claimed) {
      try {
        await options.send({ id: mail.id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        await repo.markSent(options.db, mail.id, now());
        sent += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await repo.markFailed(options.db, mail.id, {
          error: message.slice(0, 500),
          nextAttemptAt: new Date(now().getTime() + retryDelayMs(mail.attempts)),
        });
        options.log.warn(
          { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, err: message },
          'mail not sent; will retry',
        );
      }
    }
    return sent;
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
      stopped = false;
      if (!timer) schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
