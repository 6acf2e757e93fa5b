import { Redis } from 'ioredis';

export interface RedisOptions {
  connectTimeoutMs: number;
  /** A command without an answer in this time fails (a frozen Redis must not hold requests). */
  commandTimeoutMs: number;
  log: { info(message: string): void; warn(message: string): void };
}

/**
 * The shared Redis client (rate-limit counters). Every wait is bounded: commands fail at once while
 * disconnected (no offline queue) and after `commandTimeoutMs` when Redis does not answer, so the
 * rate limiter falls back to memory instead of hanging sign-ins. Reconnects forever with back-off;
 * logs each change between up and down once, not every failed retry.
 */
export function createRedis(url: string, options: RedisOptions): Redis {
  const redis = new Redis(url, {
    connectTimeout: options.connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  let isUp: boolean | null = null;
  redis.on('ready', () => {
    if (isUp !== true) options.log.info('Redis is reachable');
    isUp = true;
  });
  redis.on('error', (error: Error) => {
    if (isUp !== false) options.log.warn(`Redis is unreachable (${error.message}); rate limits count in memory`);
    isUp = false;
  });
  return redis;
}

/** Readiness of Redis: a PING answered in time. */
export async function pingRedis(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
  await redis.ping();
}
