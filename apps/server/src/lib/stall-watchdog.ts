import { Worker } from 'node:worker_threads';

/**
 * Ends the process when its main thread stops running JavaScript for `stallMs`. PGlite runs in the
 * main thread, and after some storage failures (a WAL segment it cannot create) its WebAssembly
 * spins forever: no timer, no request and no SIGTERM handler runs again, and the data-directory
 * lock stays. A worker thread still runs then: it logs, removes the lock (a directory, see
 * db/client.ts) and kills the process (SIGKILL, so a supervisor sees a failure and restarts it).
 */
export function startStallWatchdog(options: { stallMs: number; lockFile?: string | undefined }): { stop(): void } {
  const beat = new Int32Array(new SharedArrayBuffer(4));
  const tick = Math.max(50, Math.min(1_000, Math.floor(options.stallMs / 4)));
  const interval = setInterval(() => Atomics.add(beat, 0, 1), tick);
  interval.unref();
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: { beat, stallMs: options.stallMs, tick, lockFile: options.lockFile ?? null },
  });
  worker.unref();
  return {
    stop: () => {
      clearInterval(interval);
      void worker.terminate();
    },
  };
}

// Plain JavaScript run by the worker: it cannot import our TypeScript modules.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { rmSync, writeSync } = require('node:fs');
const { beat, stallMs, tick, lockFile } = workerData;
const pause = new Int32Array(new SharedArrayBuffer(4));
let last = Atomics.load(beat, 0);
let since = Date.now();
for (;;) {
  Atomics.wait(pause, 0, 0, tick);
  const now = Atomics.load(beat, 0);
  if (now !== last) { last = now; since = Date.now(); continue; }
  if (Date.now() - since >= stallMs) {
    writeSync(2, 'The server stopped responding for ' + stallMs + ' ms (the embedded database may have failed); exiting so that it can be restarted.\\n');
    if (lockFile) rmSync(lockFile, { recursive: true, force: true });
    process.kill(process.pid, 'SIGKILL');
  }
}
`;
