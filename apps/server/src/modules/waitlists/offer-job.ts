import type { FastifyBaseLogger } from 'fastify';
import { createIntervalJob } from '../../lib/interval-job.ts';
import { offerFreeSeats, type WaitlistDeps } from './waitlists.service.ts';

/**
 * The waitlist job buildApp starts when the app is ready (decision 051): every
 * WAITLIST_INTERVAL_SECONDS (0 disables it) it expires offers that ran out and offers each free
 * seat of a section to the next person waiting. Seats freed by a refund or a removed cart line
 * are offered at once as well; a hold that simply expires frees its seat only here. Safe on
 * several instances: each section is served under its row lock.
 */
export function createWaitlistJob(options: WaitlistDeps & { intervalMs: number; log?: FastifyBaseLogger }) {
  const runOnce = () => offerFreeSeats(options);
  return {
    /** One pass now; answers how many offers it made (tests call it with their clock). */
    runOnce,
    ...createIntervalJob({
      intervalMs: options.intervalMs,
      run: runOnce,
      failure: 'offering seats to waiting lists failed',
      log: options.log,
    }),
  };
}
