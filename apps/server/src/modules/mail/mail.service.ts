import type { MailboxEntry } from '@skillhive/shared/contracts/mail';
import type { Db } from '../../db/client.ts';
import { limitOffsetOf } from '../../lib/paging.ts';
import * as repo from './mail.repository.ts';
import type { RenderedMail } from './mail.templates.ts';

export type { RenderedMail } from './mail.templates.ts';
export * from './mail.templates.ts';

/**
 * Queues a message in the outbox. Call it with the transaction of the event that causes the mail:
 * both commit together, or neither does, so a commit never loses its mail.
 */
export async function queueMail(db: Db, to: string, mail: RenderedMail): Promise<string> {
  return repo.insertMail(db, { kind: mail.kind, to, subject: mail.subject, text: mail.text, html: mail.html });
}

export async function listMailbox(
  db: Db,
  query: { page: number; limit: number },
): Promise<{ items: MailboxEntry[]; total: number }> {
  const { rows, total } = await repo.listMail(db, limitOffsetOf(query));
  return {
    items: rows.map((row) => ({
      _id: row.id,
      kind: row.kind,
      to: row.to,
      subject: row.subject,
      text: row.text,
      status: row.status === 'sent' ? 'sent' : 'pending',
      attempts: row.attempts,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    })),
    total,
  };
}

export { countPending } from './mail.repository.ts';
