import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { MailboxEntry } from '@skillhive/shared/mail';
import { apiClient } from '../../../lib/api-client.ts';

export const MAILBOX_PAGE_SIZE = 20;

/** GET /api/admin/mailbox: the outbox, newest first (admins; only without SMTP, outside production). */
export const mailboxQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['admin', 'mailbox', page],
    queryFn: ({ signal }) =>
      apiClient.list<MailboxEntry>('/admin/mailbox', {
        secured: true,
        signal,
        query: { page, limit: MAILBOX_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
