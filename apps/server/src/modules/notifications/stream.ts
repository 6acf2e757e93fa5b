import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { LiveNotifications } from './live.ts';
import { listNotificationsAfter } from './notifications.repository.ts';
import { toItem } from './notifications.service.ts';

/*
 * One Server-Sent Events stream of a person's new notifications (decision 047). It sends what
 * comes after its cursor, read from the table: first what was missed (Last-Event-ID or ?after=),
 * then each item live.ts says was created. Written straight to the socket, past Fastify's reply
 * hooks, so neither compression nor any cache holds an event back.
 */

/** Items read per query; a longer backlog is read in batches. */
const BATCH = 100;
/**
 * When an item is announced before its producer's transaction committed, the stream looks for it
 * again after these waits (ms); then it leaves it to the next look or to a reconnection.
 */
const COMMIT_WAITS_MS = [20, 80, 250, 600, 1_500, 3_000];
/** A stream ends after this long, so the browser reconnects (resuming) and its session is checked again. */
export const STREAM_MAX_AGE_MS = 30 * 60_000;
/** How long a browser waits before reconnecting (the `retry:` field). */
const RECONNECT_MS = 3_000;
/** A client that has not read this much is too slow to follow: it is dropped and may resume. */
const MAX_UNREAD_BYTES = 1024 * 1024;
/** How many sent ids a stream remembers, not to send an item twice. */
const SENT_REMEMBERED = 500;

export interface StreamDeps {
  db: Db;
  live: LiveNotifications;
  log: FastifyBaseLogger;
  heartbeatMs: number;
}

/** Starts the stream on `raw` (its headers not yet sent); answers the function that ends it. */
export function startNotificationStream(
  deps: StreamDeps,
  raw: ServerResponse,
  headers: Record<string, string | number | string[]>,
  recipientId: string,
  after: number,
  onEnd: () => void,
): () => void {
  let cursor = after;
  const sent = new Set<number>();
  /** Announced ids not yet read (their transaction may not have committed). */
  const announced = new Set<number>();
  let running = false;
  let again = false;
  let ended = false;
  let wait = 0;
  let retry: NodeJS.Timeout | undefined;

  const write = (chunk: string) => {
    if (ended) return;
    if (raw.writableLength > MAX_UNREAD_BYTES) {
      end();
      return;
    }
    raw.write(chunk);
  };

  const pump = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        for (;;) {
          const earlier = [...announced].filter((id) => id <= cursor);
          const rows = await listNotificationsAfter(deps.db, recipientId, cursor, earlier, BATCH);
          if (ended) return;
          for (const row of rows) {
            announced.delete(row.id);
            if (sent.has(row.id)) continue;
            sent.add(row.id);
            if (sent.size > SENT_REMEMBERED) sent.delete(sent.values().next().value!);
            cursor = Math.max(cursor, row.id);
            write(`id: ${row.id}\nevent: notification\ndata: ${JSON.stringify(toItem(row))}\n\n`);
          }
          if (rows.length < BATCH) break;
        }
      } while (again && !ended);
    } catch (error) {
      deps.log.warn({ err: error }, 'a notification stream could not read new items');
    } finally {
      running = false;
    }
    if (ended || announced.size === 0) {
      wait = 0;
      return;
    }
    if (wait >= COMMIT_WAITS_MS.length) {
      // Rolled back, or committed very late: a later look or the browser's reconnection finds it.
      announced.clear();
      wait = 0;
      return;
    }
    clearTimeout(retry);
    retry = setTimeout(() => void pump(), COMMIT_WAITS_MS[wait++]);
  };

  const stopListening = deps.live.listen(recipientId, (id) => {
    if (id !== null) {
      if (sent.has(id)) return;
      announced.add(id);
    }
    void pump();
  });
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), deps.heartbeatMs);
  const maxAge = setTimeout(() => end(), STREAM_MAX_AGE_MS);

  function end() {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    clearTimeout(maxAge);
    clearTimeout(retry);
    stopListening();
    if (!raw.writableEnded) raw.end();
    onEnd();
  }
  raw.on('close', end);

  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    // nginx and some other proxies buffer responses unless told not to.
    'x-accel-buffering': 'no',
  });
  write(`retry: ${RECONNECT_MS}\n: connected\n\n`);
  void pump();
  return end;
}
