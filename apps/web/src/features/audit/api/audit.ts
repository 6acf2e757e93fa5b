import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, userScopeKey, type UserScope } from '../../../lib/query-client.ts';

export const AUDIT_PAGE_SIZE = 20;

/** The audit log an admin reads, under that admin's own key root. */
export const auditKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'audit'] as const,
  list: (userId: string, page: number) => [...auditKeys.all(userId), 'list', page] as const,
};

/** GET /api/audit?page=&limit= (admin; newest first; X-Total-Count). */
export const auditQueryOptions = (user: UserScope | null, page: number) =>
  queryOptions({
    queryKey: auditKeys.list(user?.id ?? '', page),
    queryFn: ({ signal }) =>
      apiClient.list('/audit', { secured: true, signal, query: { page, limit: AUDIT_PAGE_SIZE } }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });
