import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIntervalJob } from './interval-job.ts';

describe('createIntervalJob', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A run that lasts until `finish` is called. */
  function slowRun() {
    const job = { started: 0, finish: () => {} };
    const run = () => {
      job.started += 1;
      return new Promise<void>((resolve) => {
        job.finish = resolve;
      });
    };
    return { job, run };
  }

  it('runs every interval, never two runs at once, and stop() waits for the run in progress', async () => {
    const { job, run } = slowRun();
    const timer = createIntervalJob({ intervalMs: 1000, run, failure: 'failed' });
    timer.start();
    await vi.advanceTimersByTimeAsync(3500);
    expect(job.started).toBe(1);

    let stopped = false;
    const stopping = timer.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    job.finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(5000);
    expect(job.started).toBe(1);
  });

  it('logs a failed run with its message and runs again at the next tick', async () => {
    const errors: unknown[][] = [];
    let runs = 0;
    const timer = createIntervalJob({
      intervalMs: 1000,
      run: async () => {
        runs += 1;
        throw new Error('boom');
      },
      failure: 'the job failed',
      log: { error: (...args: unknown[]) => errors.push(args) },
    });
    timer.start();
    await vi.advanceTimersByTimeAsync(2000);
    await timer.stop();
    expect(runs).toBe(2);
    expect(errors).toHaveLength(2);
    expect(errors[0]![1]).toBe('the job failed');
  });

  it('never runs with an interval of 0', async () => {
    const { job, run } = slowRun();
    const timer = createIntervalJob({ intervalMs: 0, run, failure: 'failed' });
    timer.start();
    await vi.advanceTimersByTimeAsync(60_000);
    await timer.stop();
    expect(job.started).toBe(0);
  });
});
