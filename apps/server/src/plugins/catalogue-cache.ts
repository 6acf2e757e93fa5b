import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createShortCache, type ShortCache } from '../lib/short-cache.ts';

type Encoding = 'br' | 'gzip';

/** The compression plugin's threshold (plugins/security.ts): smaller bodies go as they are. */
const COMPRESS_THRESHOLD_BYTES = 1024;

/** A shared page: its bytes (JSON, or a rendered page's HTML), type and headers, and the same compressed once per encoding asked for. */
interface SharedPage {
  body: Buffer;
  type: string;
  headers: Record<string, string>;
  encoded: Map<Encoding, Buffer>;
}

/** What a route loads on a miss: the response body (already checked against its schema) and headers. */
export interface PageLoad {
  body: unknown;
  headers: Record<string, string>;
}

export interface CatalogueCache {
  /** False when CATALOGUE_CACHE_TTL_SECONDS is 0. */
  readonly enabled: boolean;
  /** Catalogue totals per filter, shared by every page and sort of that filter. */
  readonly totals: ShortCache<number>;
  /**
   * Sends the page stored under `key`, loading it on a miss (one load for concurrent misses).
   * The bytes are serialized once and compressed once per encoding, not once per response; with
   * the cache off, the page is loaded and sent the usual way (serializer, compression plugin).
   */
  sendPage(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    load: () => Promise<PageLoad>,
  ): FastifyReply | Promise<FastifyReply>;
  /**
   * The same for a public page rendered on the server for anonymous visitors (decision 030): its
   * HTML stored under `key` for the same TTL, rendered once on a miss. A load that throws is not
   * kept. With the cache off, the page is rendered and sent the usual way.
   */
  sendHtml(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    load: () => Promise<string>,
  ): FastifyReply | Promise<FastifyReply>;
  /**
   * Forgets every page and total of this instance, so content an admin hid or a suspended
   * teacher's classes leave the public lists at once here (decision 043); other instances forget
   * theirs within the TTL.
   */
  invalidate(): void;
}

/** Brotli, else gzip, from Accept-Encoding; null leaves it to the compression plugin as usual. */
export function sharedPageEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = acceptEncoding
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => !/;\s*q=0(\.0*)?$/.test(part))
    .map((part) => part.split(';')[0]!.trim());
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

/**
 * The page compressed like the compression plugin would (same brotli quality, gzip default), but
 * once per page instead of once per response: per-response brotli cut cached pages from ~48 000
 * to ~10 000 req/s (bench/, BENCHMARKS.md).
 */
function encodedPage(page: SharedPage, encoding: Encoding): Buffer {
  let bytes = page.encoded.get(encoding);
  if (!bytes) {
    bytes =
      encoding === 'br'
        ? brotliCompressSync(page.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } })
        : gzipSync(page.body);
    page.encoded.set(encoding, bytes);
  }
  return bytes;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** A shared page's bytes as they are; a response that depends on Accept-Encoding says so. */
function sendShared(request: FastifyRequest, reply: FastifyReply, page: SharedPage): FastifyReply {
  reply.headers(page.headers).type(page.type);
  if (page.body.length < COMPRESS_THRESHOLD_BYTES) return reply.send(page.body);
  reply.header('vary', 'accept-encoding');
  const encoding = sharedPageEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(page.body);
  return reply.header('content-encoding', encoding).send(encodedPage(page, encoding));
}

/**
 * The public catalogue, shared for CATALOGUE_CACHE_TTL_SECONDS (0 turns it off): its pages and
 * totals are read from the database once per TTL rather than once per visitor, and each page is
 * serialized and compressed once (bench/, BENCHMARKS.md). `now` is a monotonic clock in milliseconds
 * (AppDeps.monotonicNow): a wall clock stepped back would keep a page for the step's length
 * (decision 032).
 */
export const catalogueCachePlugin = fp(
  async function catalogueCache(app: FastifyInstance, opts: { ttlSeconds: number; now: () => number }) {
    const cacheOptions = { ttlMs: Math.round(opts.ttlSeconds * 1000), now: opts.now };
    const pages = createShortCache<SharedPage>(cacheOptions);
    const totals = createShortCache<number>(cacheOptions);

    const cache: CatalogueCache = {
      enabled: pages.enabled,
      totals,
      async sendPage(request, reply, key, load) {
        if (!pages.enabled) {
          const { body, headers } = await load();
          return reply.headers(headers).send(body);
        }
        const page = await pages.get(key, async () => {
          const { body, headers } = await load();
          return { body: Buffer.from(JSON.stringify(body)), type: JSON_TYPE, headers, encoded: new Map() };
        });
        return sendShared(request, reply, page);
      },
      async sendHtml(request, reply, key, load) {
        if (!pages.enabled) return reply.type(HTML_TYPE).send(await load());
        const page = await pages.get(key, async () => ({
          body: Buffer.from(await load()),
          type: HTML_TYPE,
          headers: {},
          encoded: new Map(),
        }));
        return sendShared(request, reply, page);
      },
      invalidate() {
        pages.clear();
        totals.clear();
      },
    };
    app.decorate('catalogueCache', cache);
  },
  { name: 'catalogue-cache' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** plugins/catalogue-cache.ts */
    catalogueCache: CatalogueCache;
  }
}
