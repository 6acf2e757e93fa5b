import { LRUCache } from 'lru-cache';

/**
 * A short-lived, single-flight cache: the first request for a key loads it, the requests during
 * the next `ttlMs` — concurrent ones included — share that answer; a failed load is not kept.
 * Used for the public catalogue (plugins/catalogue-cache.ts; bench/, BENCHMARKS.md).
 */
export interface ShortCache<T> {
  /** False when the TTL is 0: `get` then loads every time. */
  readonly enabled: boolean;
  get(key: string, load: () => Promise<T>): Promise<T>;
  /** Forgets every entry: the next request loads afresh (content an admin hid, decision 043). */
  clear(): void;
}

export interface ShortCacheOptions {
  /** 0 turns the cache off. */
  ttlMs: number;
  /** Milliseconds of a monotonic clock (AppDeps.monotonicNow, decision 032); tests move it instead of waiting. */
  now: () => number;
  /** Entries kept at most; the least recently used go first. */
  max?: number;
}

/** lru-cache with `ttl` and `fetchMethod` (which shares one load among concurrent callers). */
export function createShortCache<T extends NonNullable<unknown>>(options: ShortCacheOptions): ShortCache<T> {
  if (options.ttlMs <= 0) return { enabled: false, get: (_key, load) => load(), clear: () => {} };
  const cache = new LRUCache<string, T, () => Promise<T>>({
    max: options.max ?? 1_000,
    // lru-cache keeps an entry while `now - start <= ttl`: one millisecond less makes it expire at
    // exactly ttlMs, so an answer is never as old as the TTL.
    ttl: Math.max(1, options.ttlMs - 1),
    // Read the clock on every access rather than once per millisecond timer.
    ttlResolution: 0,
    perf: { now: options.now },
    fetchMethod: (_key, _stale, { context: load }) => load(),
  });
  return {
    enabled: true,
    async get(key, load) {
      const value = await cache.fetch(key, { context: load });
      if (value === undefined) throw new Error(`short cache: the load of ${key} returned nothing`);
      return value;
    },
    clear: () => cache.clear(),
  };
}
