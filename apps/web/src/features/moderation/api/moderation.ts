import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportAction, ReportStatus } from '@skillhive/shared/rules/constants';
import type { CreateReportBody } from '@skillhive/shared/rules/report-form';
import { apiClient } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

export const REPORTS_PAGE_SIZE = 20;

/** The report queue an admin works, under that admin's own key root (decision 043). */
export const reportKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'reports'] as const,
  list: (userId: string, status: ReportStatus, page: number) => [...reportKeys.all(userId), status, page] as const,
};

/** GET /api/admin/reports?status=&page= (admin; open ones oldest first; X-Total-Count). */
export const reportsQueryOptions = (user: UserScope | null, status: ReportStatus, page: number) =>
  queryOptions({
    queryKey: reportKeys.list(user?.id ?? '', status, page),
    queryFn: ({ signal }) =>
      apiClient.list('/admin/reports', { secured: true, signal, query: { status, page, limit: REPORTS_PAGE_SIZE } }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** POST /api/reports: any signed-in person reports a class, a review or a user. */
export function useCreateReport() {
  return useMutation({
    mutationFn: (body: CreateReportBody) => apiClient.post('/reports', body, { secured: true }),
  });
}

/**
 * POST /api/admin/reports/:id/decision (admin). A decision may hide classes or reviews and
 * suspend people, so everything this admin has cached is read again.
 */
export function useDecideReport() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: ({ id, action, note }: { id: string; action: ReportAction; note?: string }) =>
      apiClient.post(
        '/admin/reports/{id}/decision',
        { action, ...(note ? { note } : {}) },
        { path: { id }, secured: true },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userScopeKey(userId) }),
  });
}

/** DELETE /api/admin/users/:id/suspension (admin): lifts a suspension. */
export function useReinstateUser() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (id: string) => apiClient.delete('/admin/users/{id}/suspension', { path: { id }, secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userScopeKey(userId) }),
  });
}
