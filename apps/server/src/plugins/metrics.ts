import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError, ErrorCode } from '../lib/app-error.ts';

/** The pg pool's counters the metrics read; the pg.Pool of openPostgres has them. */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * A registry per app (tests build several apps in one process). It is the seam for other
 * modules' gauges (outbox depth, job lag): create them with `registers: [registry]`, or pass the
 * registry into buildApp (AppDeps.metrics) after adding them.
 */
export function createMetricsRegistry(): Registry {
  return new Registry();
}

let processRegistry: Registry | undefined;

/** CPU, memory, event loop and GC: one set per process (their observers are process-wide). */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'skillhive_' });
  }
  return processRegistry;
}

/** 2xx, 4xx, 5xx: the label stays small whatever the status. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/** Constant-time comparison of two secrets of any length (both hashed to 32 bytes first). */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export interface MetricsOptions {
  registry: Registry;
  /** METRICS_TOKEN. Without it GET /metrics answers 404. */
  token?: string | undefined;
  /** The pg pool when on PostgreSQL; PGlite has no pool. */
  pool?: PoolStats | undefined;
}

/**
 * Prometheus metrics (docs/OPERATIONS.md "Metrics"): request rate, latency and errors per route
 * pattern, the database pool, and the process. Scraped at GET /metrics with
 * `Authorization: Bearer $METRICS_TOKEN`.
 */
export const metricsPlugin = fp(async function metrics(app: FastifyInstance, opts: MetricsOptions) {
  const { registry, pool } = opts;
  const labelNames = ['method', 'route', 'status_class'] as const;
  const duration = new Histogram({
    name: 'skillhive_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern, method and status class',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'skillhive_http_requests_total',
    help: 'HTTP requests by route pattern, method and status class',
    labelNames,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'skillhive_http_errors_total',
    help: 'HTTP responses with a 4xx or 5xx status, by route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  if (pool) {
    const poolGauge = (name: string, help: string, read: (p: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read(pool));
        },
      });
    poolGauge('skillhive_db_pool_total', 'PostgreSQL pool: open connections', (p) => p.totalCount);
    poolGauge('skillhive_db_pool_idle', 'PostgreSQL pool: idle connections', (p) => p.idleCount);
    poolGauge('skillhive_db_pool_waiting', 'PostgreSQL pool: queries waiting for a connection', (p) => p.waitingCount);
  }

  // Synchronous, as every hook on the path of every request (decision 036).
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern (/api/classes/:id), never the raw URL: label values stay few.
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const labels = { method: request.method, route, status_class: statusClass(status) };
    duration.observe(labels, reply.elapsedTime / 1000);
    requests.inc(labels);
    if (status >= 400) errors.inc({ method: request.method, route, status: String(status) });
    done();
  });

  const token = opts.token;
  if (token) processMetrics();
  app.get('/metrics', { schema: { hide: true }, config: { access: 'metrics-token' } }, async (request, reply) => {
    // Without METRICS_TOKEN the endpoint does not exist (and must not fall back to the web app).
    if (!token) throw new AppError(ErrorCode.NOT_FOUND, 'No route for GET /metrics');
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!given || !secretsEqual(given, token)) {
      throw new AppError(ErrorCode.UNAUTHENTICATED, 'A valid metrics token is required');
    }
    // Merged at each scrape, so metrics added to the registry after start-up are included.
    const scraped = Registry.merge([processMetrics(), registry]);
    reply.header('content-type', scraped.contentType);
    return scraped.metrics();
  });
});
