import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PageQuery } from '@skillhive/shared/contracts/common';
import { TOTAL_COUNT_HEADER } from '@skillhive/shared/rules/http';
import { AuditEntry } from '@skillhive/shared/contracts/users';
import type { Db } from '../../db/client.ts';
import { requireAdmin } from '../../lib/authorize.ts';
import { listAudit } from './audit.service.ts';

export async function auditRoutes(app: FastifyInstance, opts: { db: Db }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/audit',
    {
      schema: {
        tags: ['audit'],
        operationId: 'listAuditEntries',
        summary: 'The log of admin actions (promote, delete, approvals), newest first (admins only)',
        querystring: PageQuery,
        response: { 200: z.array(AuditEntry) },
      },
    },
    async (request, reply) => {
      await requireAdmin(request);
      const { items, total } = await listAudit(opts.db, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return items;
    },
  );
}
