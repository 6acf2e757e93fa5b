import type { Redis } from 'ioredis';
import {
  RateLimiterDrizzle,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { AppError, ErrorCode } from './app-error.ts';

/**
 * Counters for rate limits, shared through Redis when REDIS_URL is set (several app instances),
 * in memory otherwise (DESIGN §2).
 */
export interface Limiter {
  /** Counts one event under `key`; throws a 429 AppError once the limit is passed. */
  consume(key: string): Promise<void>;
  /** Throws a 429 when `key` has already used its allowance, without counting. */
  check(key: string): Promise<void>;
  /** Gives back one event counted under `key` (an attempt that turned out not to count). */
  refund(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export function createLimiter(options: {
  name: string;
  points: number;
  durationSeconds: number;
  redis?: Redis | undefined;
  /**
   * Count in this database table instead (Drizzle client and table with key, points, expire):
   * for a limit that must hold through a Redis outage on every instance (decision 028).
   */
  database?: { client: object; table: object } | undefined;
  /** What a 429 tells the user (given the seconds to wait); default: a message about attempts. */
  message?: string | ((retryAfterSeconds: number) => string) | undefined;
  /** Fields of the error envelope a 429 names: the form field the attempts were made in. */
  fields?: readonly string[] | undefined;
}): Limiter {
  const base = { keyPrefix: `skillhive:${options.name}`, points: options.points, duration: options.durationSeconds };
  // With Redis unreachable, each instance counts in its own memory rather than failing sign-ins.
  const limiter: RateLimiterAbstract = options.database
    ? new RateLimiterDrizzle({ ...base, storeClient: options.database.client, schema: options.database.table })
    : options.redis
      ? new RateLimiterRedis({
          ...base,
          storeClient: options.redis,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory(base),
        })
      : new RateLimiterMemory(base);
  const tooMany = (res: RateLimiterRes) => {
    const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    // A lockout says how long it lasts, so the person knows when to try again.
    const message =
      typeof options.message === 'function'
        ? options.message(seconds)
        : (options.message ?? `Too many attempts. ${tryAgainIn(seconds)}`);
    return new AppError(ErrorCode.RATE_LIMITED, message, {
      headers: { 'retry-after': String(seconds) },
      ...(options.fields ? { fields: Object.fromEntries(options.fields.map((field) => [field, message])) } : {}),
    });
  };
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
      } catch (error) {
        if (error instanceof RateLimiterRes) throw tooMany(error);
        throw error;
      }
    },
    async check(key) {
      const res = await limiter.get(key);
      if (res && res.consumedPoints >= options.points) throw tooMany(res);
    },
    async refund(key) {
      await limiter.reward(key, 1);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

/** "Please try again in 12 minutes." — rounded up, so the wait is never longer than said. */
export function tryAgainIn(seconds: number): string {
  if (seconds < 60) return 'Please try again in a minute.';
  const minutes = Math.ceil(seconds / 60);
  return `Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
