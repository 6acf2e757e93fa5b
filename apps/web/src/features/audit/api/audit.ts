import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AuditEntry } from '@skillhive/shared/users';
import { apiClient } from '../../../lib/api-client.ts';

export const AUDIT_PAGE_SIZE = 20;

export const auditKeys = {
  all: ['audit'] as const,
  list: (page: number) => ['audit', 'list', page] as const,
};

/** GET /api/audit?page=&limit= (admin; newest first; X-Total-Count). */
export const auditQueryOptions = (page: number) =>
  queryOptions({
    queryKey: auditKeys.list(page),
    queryFn: ({ signal }) =>
      apiClient.list<AuditEntry>('/audit', { secured: true, signal, query: { page, limit: AUDIT_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
