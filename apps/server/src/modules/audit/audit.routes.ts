import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PageQuery } from '@skillhive/shared/contracts/common';
import { AuditEntry } from '@skillhive/shared/contracts/users';
import type { Db } from '../../db/client.ts';

import { replyWithPage } from '../../lib/paging.ts';
import { listAudit } from './audit.service.ts';

export async function auditRoutes(app: FastifyInstance, opts: { db: Db }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/audit',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['audit'],
        operationId: 'listAuditEntries',
        summary: 'The log of admin actions (promote, delete, approvals), newest first (admins only)',
        querystring: PageQuery,
        response: { 200: z.array(AuditEntry) },
      },
    },
    async (request, reply) => replyWithPage(reply, await listAudit(opts.db, request.query)),
  );
}
