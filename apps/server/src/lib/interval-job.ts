import type { FastifyBaseLogger } from 'fastify';

/**
 * A background job buildApp starts when the app is ready: `run` every `intervalMs` (0 or less
 * disables it). The timer does not keep the process alive, runs never overlap (a tick during a run
 * is skipped), a failed run is logged with `failure`, and stop() waits for a run in progress so
 * the database is not closed under it. Used by the image collector and the session reminders.
 */
export function createIntervalJob(options: {
  intervalMs: number;
  run: () => Promise<unknown>;
  failure: string;
  log?: Pick<FastifyBaseLogger, 'error'> | undefined;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  const tick = () => {
    if (running) return;
    running = options
      .run()
      .catch((error: unknown) => options.log?.error({ err: error }, options.failure))
      .finally(() => {
        running = undefined;
      });
  };

  return {
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
