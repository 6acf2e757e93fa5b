import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../lib/app-error.ts';

export async function healthRoutes(app: FastifyInstance, opts: { ping: () => Promise<void> }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/health',
    {
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
      schema: {
        tags: ['health'],
        operationId: 'ready',
        summary: 'Readiness: the database answers (public)',
        response: { 200: z.object({ status: z.literal('ready') }) },
      },
    },
    async (request) => {
      try {
        await opts.ping();
      } catch (error) {
        request.log.error({ err: error }, 'database ping failed');
        throw new AppError(ErrorCode.UNAVAILABLE, 'The database is not reachable');
      }
      return { status: 'ready' as const };
    },
  );
}
