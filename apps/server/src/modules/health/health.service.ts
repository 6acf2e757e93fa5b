import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Resolves when the dependency works; rejects (with a short reason) when it does not. */
export type ReadinessCheck = () => Promise<void>;

/** Runs every check at once, each bounded by `timeoutMs`: "ok", "timeout" or the failure's message. */
export async function runChecks(checks: Record<string, ReadinessCheck>, timeoutMs: number) {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, string]> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const outcome = check().then(
        () => 'ok',
        (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200) || 'failed',
      );
      try {
        return [name, await Promise.race([outcome, timeout])];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries(entries);
}

/** A directory is usable for uploads when a file can be created and removed in it. */
export function checkDirectoryWritable(dir: string): ReadinessCheck {
  return async () => {
    await mkdir(dir, { recursive: true });
    const probe = path.join(dir, `.ready-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      await writeFile(probe, '');
    } catch (error) {
      throw new Error(`not writable (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
    }
    await rm(probe, { force: true });
  };
}
