import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { sendDueReminders } from './content.service.ts';

/**
 * The reminder job buildApp starts when the app is ready (issue 21 §4): every
 * SESSION_REMINDER_INTERVAL_SECONDS (0 disables it) it queues the reminders of sessions starting
 * within SESSION_REMINDER_MINUTES. Safe on several instances: each reminder is claimed once in the
 * database (content.service.ts sendDueReminders). Like the image collector, the timer does not
 * keep the process alive, runs never overlap, and stop() waits for a run in progress.
 */
export function createSessionReminders(options: {
  db: Db;
  now: () => Date;
  publicUrl: string;
  reminderMinutes: number;
  intervalMs: number;
  log?: FastifyBaseLogger;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  const runOnce = () => sendDueReminders(options, options.reminderMinutes);
  const tick = () => {
    if (running) return;
    running = runOnce()
      .catch((error: unknown) => options.log?.error({ err: error }, 'sending session reminders failed'))
      .finally(() => {
        running = undefined;
      });
  };

  return {
    /** One pass now; answers how many reminders it queued (tests call it instead of waiting). */
    runOnce,
    start() {
      if (options.intervalMs <= 0 || timer) return;
      timer = setInterval(tick, options.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
