import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * Who is told that a notification was created (decision 047): the streams open on this instance
 * at once, and, with REDIS_URL, every other instance through one Redis pub/sub channel. A message
 * carries only the recipient and the item's id; each stream reads the item from the table, so an
 * item is never sent before its transaction committed, nor at all when it rolled back.
 *
 * Redis failing never fails the write that notified: the publish is not awaited by anyone, its
 * error is logged once per outage, and when the subscription comes back every stream here reads
 * what it missed (`onResync`). A browser that reconnects meanwhile resumes from its cursor anyway.
 */
export const NOTIFICATION_CHANNEL = 'skillhive:notifications';

/** A stream's callback: the id of a new item for its person, or null for "read what you may have missed". */
export type LiveListener = (id: number | null) => void;

/** The publishing side, which `notify` (notifications.public.ts) is given. */
export interface NotificationPublisher {
  published(recipientId: string, id: number): void;
}

export interface LiveNotifications extends NotificationPublisher {
  /** Listens for one person's new items; returns the function that stops listening. */
  listen(recipientId: string, listener: LiveListener): () => void;
  /** How many streams listen for this person on this instance. */
  listenersOf(recipientId: string): number;
  /** How many streams listen on this instance. */
  size(): number;
  close(): Promise<void>;
}

interface ChannelMessage {
  from: string;
  recipientId: string;
  id: number;
}

export function createLiveNotifications(options: {
  redis?: Redis | undefined;
  log: FastifyBaseLogger;
}): LiveNotifications {
  const instance = randomUUID();
  const listeners = new Map<string, Set<LiveListener>>();
  let total = 0;
  let publishFailing = false;

  const deliver = (recipientId: string, id: number | null) => {
    for (const listener of listeners.get(recipientId) ?? []) listener(id);
  };
  const resyncAll = () => {
    for (const recipientId of listeners.keys()) deliver(recipientId, null);
  };

  // A subscribed connection can do nothing else (Redis' rule), so it is a second one. ioredis
  // subscribes again by itself after a reconnect; the first subscription waits for `ready`, as the
  // shared client refuses commands while disconnected (lib/redis.ts).
  const subscriber = options.redis?.duplicate();
  if (subscriber) {
    let wasDown = false;
    const subscribe = () => {
      subscriber.subscribe(NOTIFICATION_CHANNEL).catch((error: unknown) => {
        options.log.warn({ err: error }, 'could not subscribe to live notifications');
      });
    };
    subscriber.on('ready', () => {
      subscribe();
      if (wasDown) resyncAll();
      wasDown = false;
    });
    subscriber.on('error', () => {
      // lib/redis.ts logs the shared client's outages; this connection shares its fate.
      wasDown = true;
    });
    subscriber.on('close', () => {
      wasDown = true;
    });
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== NOTIFICATION_CHANNEL) return;
      let message: ChannelMessage;
      try {
        message = JSON.parse(text) as ChannelMessage;
      } catch {
        return;
      }
      if (message.from === instance || typeof message.recipientId !== 'string' || !Number.isSafeInteger(message.id)) {
        return;
      }
      deliver(message.recipientId, message.id);
    });
  }

  return {
    published(recipientId, id) {
      deliver(recipientId, id);
      const redis = options.redis;
      if (!redis) return;
      redis
        .publish(NOTIFICATION_CHANNEL, JSON.stringify({ from: instance, recipientId, id } satisfies ChannelMessage))
        .then(
          () => {
            publishFailing = false;
          },
          (error: unknown) => {
            if (!publishFailing) {
              options.log.warn({ err: error }, 'live notifications reach this instance only until Redis answers');
            }
            publishFailing = true;
          },
        );
    },
    listen(recipientId, listener) {
      let set = listeners.get(recipientId);
      if (!set) listeners.set(recipientId, (set = new Set()));
      set.add(listener);
      total += 1;
      return () => {
        if (!set.delete(listener)) return;
        total -= 1;
        if (set.size === 0) listeners.delete(recipientId);
      };
    },
    listenersOf: (recipientId) => listeners.get(recipientId)?.size ?? 0,
    size: () => total,
    async close() {
      if (subscriber) subscriber.disconnect();
    },
  };
}
