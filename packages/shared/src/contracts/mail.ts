import { z } from 'zod';

/** GET /api/admin/mailbox: one message of the outbox, as the development mailbox shows it. */
export const MailboxEntry = z.object({
  _id: z.string(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.enum(['pending', 'sent']),
  attempts: z.number().int(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type MailboxEntry = z.infer<typeof MailboxEntry>;
