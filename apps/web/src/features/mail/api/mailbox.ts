import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, userScopeKey, type UserScope } from '../../../lib/query-client.ts';

export const MAILBOX_PAGE_SIZE = 20;

/** The outbox an admin reads, under that admin's own key root. */
export const mailboxKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'mailbox'] as const,
  page: (userId: string, page: number) => [...mailboxKeys.all(userId), page] as const,
};

/** GET /api/admin/mailbox: the outbox, newest first (admins; only without SMTP, outside production). */
export const mailboxQueryOptions = (user: UserScope | null, page: number) =>
  queryOptions({
    queryKey: mailboxKeys.page(user?.id ?? '', page),
    queryFn: ({ signal }) =>
      apiClient.list('/admin/mailbox', {
        secured: true,
        signal,
        query: { page, limit: MAILBOX_PAGE_SIZE },
      }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });
