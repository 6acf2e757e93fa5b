import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Gauge, type Registry } from 'prom-client';
import { z } from 'zod';
import { ErrorCode } from '../../lib/app-error.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../plugins/error-handler.ts';
import { runChecks, type ReadinessCheck } from './health.service.ts';
import type { Lifecycle } from './lifecycle.ts';

const CheckResults = z.record(z.string(), z.string());

/**
 * An optional dependency that has not answered within this is reported as `timeout`: a frozen Redis
 * must not slow /api/ready past a balancer's check timeout (OPERATIONS.md gives checks 2 s), which
 * would take the instance out as surely as a 503 (decision 029). Long enough for a write probe of
 * the upload directory on a busy machine.
 */
const OPTIONAL_CHECK_MS = 1_000;

export interface HealthRoutesOptions {
  /**
   * What this instance cannot serve without (the database, PGlite's data directory): one failing
   * makes /api/ready 503, so the balancer takes the instance out.
   */
  checks: Record<string, ReadinessCheck>;
  /**
   * What the instance serves without, with less (Redis: rate limits count in memory; local upload
   * storage: uploads fail, the rest works). A failure is reported as `degraded`, never a 503: every
   * instance shares these, so failing readiness on them would take the whole site down behind the
   * balancer (decision 029).
   */
  optional?: Record<string, ReadinessCheck>;
  /** `skillhive_dependency_up{dependency}` is registered here (1 answers, 0 failed), updated at each check. */
  metrics?: Registry;
  /** Each check fails when it has not answered within this time. */
  timeoutMs: number;
  lifecycle: Lifecycle;
}

export async function healthRoutes(app: FastifyInstance, opts: HealthRoutesOptions) {
  const optional = opts.optional ?? {};
  const runAll = async () => {
    const [required, others] = await Promise.all([
      runChecks(opts.checks, opts.timeoutMs),
      runChecks(optional, Math.min(opts.timeoutMs, OPTIONAL_CHECK_MS)),
    ]);
    return { ...required, ...others };
  };
  const up = opts.metrics
    ? new Gauge({
        name: 'skillhive_dependency_up',
        help: 'Whether a dependency answered its last readiness check (1) or not (0); Redis and storage at 0 mean degraded, not down',
        labelNames: ['dependency'],
        registers: [opts.metrics],
        async collect() {
          record(await runAll());
        },
      })
    : undefined;
  const record = (checks: Record<string, string>) => {
    for (const [name, result] of Object.entries(checks)) up?.set({ dependency: name }, result === 'ok' ? 1 : 0);
  };
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        operationId: 'health',
        summary: 'Liveness: the process answers (public)',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  typed.get(
    '/api/ready',
    {
      config: { access: 'public', errors: [503] },
      schema: {
        tags: ['health'],
        operationId: 'ready',
        summary:
          'Readiness: the database answers in time and the server is not shutting down; Redis or storage failing is reported as degraded (public)',
        response: {
          200: z.object({
            status: z.enum(['ready', 'degraded']),
            checks: CheckResults,
            degraded: z.array(z.string()).optional(),
          }),
          503: z.object({
            status: z.literal('unavailable'),
            checks: CheckResults,
            error: z.object({ code: z.string(), message: z.string() }),
            requestId: z.string(),
          }),
        },
      },
    },
    async (request, reply) => {
      const shuttingDown = opts.lifecycle.phase !== 'running';
      const checks = shuttingDown ? { server: 'shutting down' } : await runAll();
      if (!shuttingDown) record(checks);
      const failed = Object.entries(checks).filter(([name, result]) => result !== 'ok' && !(name in optional));
      if (failed.length === 0) {
        const degraded = Object.keys(optional).filter((name) => checks[name] !== 'ok');
        if (degraded.length === 0) return { status: 'ready' as const, checks };
        request.log.warn({ checks }, 'ready, degraded');
        return { status: 'degraded' as const, checks, degraded };
      }
      request.log.warn({ checks }, 'not ready');
      return reply
        .code(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
        .header('cache-control', 'no-store')
        .send({
          status: 'unavailable' as const,
          checks,
          error: {
            code: ErrorCode.UNAVAILABLE,
            message: `Not ready: ${failed.map(([name, result]) => `${name} (${result})`).join(', ')}`,
          },
          requestId: request.id,
        });
    },
  );
}
