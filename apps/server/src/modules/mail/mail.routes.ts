import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PageQuery } from '@skillhive/shared/contracts/common';
import { MailboxEntry } from '@skillhive/shared/contracts/mail';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/app-error.ts';
import { replyWithPage } from '../../lib/paging.ts';
import { listMailbox } from './mail.service.ts';

/**
 * The development mailbox: without SMTP_URL, mail stays in the
 * outbox, and outside production an admin can read it here to follow every link.
 */
export async function mailRoutes(app: FastifyInstance, opts: { db: Db; mailboxEnabled: boolean }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/mailbox',
    {
      config: { access: 'admin', owner: 'mailbox-enabled', errors: [404], list: true },
      schema: {
        tags: ['mail'],
        operationId: 'listMailbox',
        summary:
          'The outbox, newest first: every e-mail the app wrote (admins only; only without SMTP_URL, outside production)',
        querystring: PageQuery,
        response: { 200: z.array(MailboxEntry) },
      },
    },
    async (request, reply) => {
      if (!opts.mailboxEnabled) throw notFound('Mailbox');
      return replyWithPage(reply, await listMailbox(opts.db, request.query));
    },
  );
}
