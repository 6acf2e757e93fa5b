import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { createIntervalJob } from '../../lib/interval-job.ts';
import { sendDueReminders } from './content.service.ts';

/**
 * The reminder job buildApp starts when the app is ready (decision 021): every
 * SESSION_REMINDER_INTERVAL_SECONDS (0 disables it) it queues the reminders of sessions starting
 * within SESSION_REMINDER_MINUTES. Safe on several instances: each reminder is claimed once in the
 * database (content.service.ts sendDueReminders). The timing is lib/interval-job.ts's, as for the
 * image collector.
 */
export function createSessionReminders(options: {
  db: Db;
  now: () => Date;
  publicUrl: string;
  reminderMinutes: number;
  intervalMs: number;
  log?: FastifyBaseLogger;
}) {
  const runOnce = () => sendDueReminders(options, options.reminderMinutes);
  return {
    /** One pass now; answers how many reminders it queued (tests call it instead of waiting). */
    runOnce,
    ...createIntervalJob({
      intervalMs: options.intervalMs,
      run: runOnce,
      failure: 'sending session reminders failed',
      log: options.log,
    }),
  };
}
