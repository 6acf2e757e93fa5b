import { UPLOAD_MESSAGES } from '@skillhive/shared/rules/messages';
import { AppError, ErrorCode } from '../../lib/app-error.ts';

/**
 * At most `concurrency` image pipelines at once and at most `maxQueued` waiting (UPLOAD_CONCURRENCY,
 * UPLOAD_QUEUE_LENGTH): decoding is CPU-heavy, and without a bound a burst of uploads would hold
 * every core and libuv thread while other requests wait. Past the queue the upload is refused at
 * once with 503 and Retry-After, before any pixel is decoded. Per process: each instance bounds its
 * own CPU.
 */
export interface ProcessingQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createProcessingQueue(options: { concurrency: number; maxQueued: number }): ProcessingQueue {
  let active = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };

  return {
    async run(task) {
      if (active < options.concurrency) {
        active += 1;
      } else if (waiting.length < options.maxQueued) {
        // The slot is handed over by release(): `active` stays counted for the waiter.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        // About one second per image: the queue ahead, shared between the pipelines.
        const retryAfter = Math.max(1, Math.ceil((active + waiting.length) / options.concurrency));
        throw new AppError(ErrorCode.UNAVAILABLE, UPLOAD_MESSAGES.busy, {
          headers: { 'retry-after': String(retryAfter) },
        });
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
