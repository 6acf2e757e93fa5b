import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { createIntervalJob } from '../../lib/interval-job.ts';
import { thumbKeyOf } from './image-processing.ts';
import type { ImageStorage } from './storage.public.ts';
import { deleteUnreferencedUploads, tryLockCollector } from './uploads.repository.ts';

/** Uploads removed per run; a larger backlog is worked off over the next runs. */
const BATCH_SIZE = 500;

export interface CollectResult {
  /** False when another instance was collecting at the same moment. */
  ran: boolean;
  removed: string[];
  /** Keys whose rows are gone but whose files could not be deleted (logged). */
  failedFiles: string[];
}

export interface ImageCollectorOptions {
  db: Db;
  storage: ImageStorage;
  now: () => Date;
  /** An upload nothing references is kept this long (UPLOAD_GC_GRACE_HOURS): the form using it may still be open. */
  graceHours: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> | undefined;
}

/**
 * Removes uploads that no class, enrollment, teacher request or profile uses (uploads.repository
 * IMAGE_REFERENCES) and that are older than the grace period: first their rows, in a transaction
 * holding an advisory lock so only one instance collects at a time, then their display and
 * thumbnail files, outside the transaction (DESIGN §2: no network call inside one).
 */
export async function collectUnusedImages(options: ImageCollectorOptions): Promise<CollectResult> {
  const cutoff = new Date(options.now().getTime() - options.graceHours * 3_600_000);
  const outcome = await options.db.transaction(async (tx) => {
    if (!(await tryLockCollector(tx))) return null;
    return deleteUnreferencedUploads(tx, cutoff, BATCH_SIZE);
  });
  if (!outcome) return { ran: false, removed: [], failedFiles: [] };

  const failedFiles: string[] = [];
  for (const key of outcome) {
    try {
      await options.storage.delete(key);
      await options.storage.delete(thumbKeyOf(key));
    } catch (error) {
      failedFiles.push(key);
      options.log?.warn({ err: error, key }, 'unused image: row removed, files could not be deleted');
    }
  }
  if (outcome.length > 0) options.log?.info({ removed: outcome.length }, 'unused images removed');
  return { ran: true, removed: outcome, failedFiles };
}

/**
 * The periodic collection buildApp starts when the app is ready (UPLOAD_GC_INTERVAL_MINUTES; 0
 * disables it); lib/interval-job.ts keeps runs from overlapping and lets stop() wait for one.
 */
export function createImageCollector(options: ImageCollectorOptions & { intervalMs: number }) {
  return createIntervalJob({
    intervalMs: options.intervalMs,
    run: () => collectUnusedImages(options),
    failure: 'collecting unused images failed',
    log: options.log,
  });
}
