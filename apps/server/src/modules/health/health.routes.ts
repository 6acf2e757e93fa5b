import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorCode } from '../../lib/app-error.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../plugins/error-handler.ts';
import { runChecks, type ReadinessCheck } from './health.service.ts';
import type { Lifecycle } from './lifecycle.ts';

const CheckResults = z.record(z.string(), z.string());

export interface HealthRoutesOptions {
  /** One check per dependency (database, Redis when configured, storage). */
  checks: Record<string, ReadinessCheck>;
  /** Each check fails when it has not answered within this time. */
  timeoutMs: number;
  lifecycle: Lifecycle;
}

export async function healthRoutes(app: FastifyInstance, opts: HealthRoutesOptions) {
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
        summary: 'Readiness: every dependency answers in time and the server is not shutting down (public)',
        response: {
          200: z.object({ status: z.literal('ready'), checks: CheckResults }),
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
      const checks = shuttingDown ? { server: 'shutting down' } : await runChecks(opts.checks, opts.timeoutMs);
      const failed = Object.entries(checks).filter(([, result]) => result !== 'ok');
      if (failed.length === 0) return { status: 'ready' as const, checks };
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
