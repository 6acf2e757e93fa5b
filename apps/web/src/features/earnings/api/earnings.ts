import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DisputeStatus, PayoutFilter } from '@skillhive/shared/rules/earnings';
import type { SetFeeRateBody } from '@skillhive/shared/rules/earnings';
import { apiClient, apiRequest } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

export const EARNING_LINES_PAGE_SIZE = 20;
export const PAYOUTS_PAGE_SIZE = 10;
export const DISPUTES_PAGE_SIZE = 10;

/**
 * Money out (decisions 039, 040) under the reader's own key root: a teacher's ledger and payouts,
 * or the admin's payouts, batches, revenue and disputes. Another user never sees them, and they
 * go at sign-out.
 */
export const earningsKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'earnings'] as const,
  summary: (userId: string) => [...earningsKeys.all(userId), 'summary'] as const,
  lines: (userId: string, page: number) => [...earningsKeys.all(userId), 'lines', page] as const,
  payouts: (userId: string, page: number) => [...earningsKeys.all(userId), 'payouts', page] as const,
  adminPayouts: (userId: string, status: PayoutFilter, page: number) =>
    [...earningsKeys.all(userId), 'admin-payouts', status, page] as const,
  upcoming: (userId: string) => [...earningsKeys.all(userId), 'upcoming'] as const,
  batches: (userId: string, page: number) => [...earningsKeys.all(userId), 'batches', page] as const,
  revenue: (userId: string) => [...earningsKeys.all(userId), 'revenue'] as const,
  disputes: (userId: string, status: DisputeStatus | 'all', page: number) =>
    [...earningsKeys.all(userId), 'disputes', status, page] as const,
  feeRate: (userId: string, teacherId: string) => [...earningsKeys.all(userId), 'fee-rate', teacherId] as const,
};

/** Balances move with payments, refunds and the release job: asked again each time the page opens. */
const ALWAYS_REFRESH = 0;

// ---- Teacher ---------------------------------------------------------------------------------

/** GET /api/teachers/me/earnings: balances, next payout date and the connected account. */
export const earningsSummaryQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: earningsKeys.summary(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/teachers/me/earnings', { secured: true, signal }),
    enabled: user !== null,
    staleTime: ALWAYS_REFRESH,
  });

/** GET /api/teachers/me/earnings/lines?page=&limit= (newest first; X-Total-Count). */
export const earningLinesQueryOptions = (user: UserScope | null, page: number) =>
  queryOptions({
    queryKey: earningsKeys.lines(user?.id ?? '', page),
    queryFn: ({ signal }) =>
      apiClient.list('/teachers/me/earnings/lines', {
        secured: true,
        signal,
        query: { page, limit: EARNING_LINES_PAGE_SIZE },
      }),
    enabled: user !== null,
    staleTime: ALWAYS_REFRESH,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** GET /api/teachers/me/payouts?page=&limit= (newest first; X-Total-Count). */
export const teacherPayoutsQueryOptions = (user: UserScope | null, page: number) =>
  queryOptions({
    queryKey: earningsKeys.payouts(user?.id ?? '', page),
    queryFn: ({ signal }) =>
      apiClient.list('/teachers/me/payouts', { secured: true, signal, query: { page, limit: PAYOUTS_PAGE_SIZE } }),
    enabled: user !== null,
    staleTime: ALWAYS_REFRESH,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/**
 * POST /api/teachers/me/connect → {url}: the gateway's onboarding page, which the browser then
 * opens; the gateway sends the teacher back to the Earnings page.
 */
export function useStartConnect() {
  return useMutation({
    mutationFn: () => apiClient.post('/teachers/me/connect', undefined, { secured: true }),
  });
}

/** Hands `text` to the browser as a file download named `filename`. */
function saveText(text: string, filename: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * GET /api/teachers/me/earnings/statement?month=YYYY-MM (text/csv): fetched with the session's
 * token (a plain link would not carry it), then saved as a file.
 */
export async function downloadStatement(month: string): Promise<void> {
  const { data } = await apiRequest<string>('/teachers/me/earnings/statement', {
    secured: true,
    query: { month },
  });
  saveText(data, `skillhive-statement-${month}.csv`);
}

// ---- Admin -----------------------------------------------------------------------------------

/** GET /api/admin/payouts?status=&page=&limit= (admin; X-Total-Count). */
export const adminPayoutsQueryOptions = (user: UserScope | null, status: PayoutFilter, page: number) =>
  queryOptions({
    queryKey: earningsKeys.adminPayouts(user?.id ?? '', status, page),
    queryFn: ({ signal }) =>
      apiClient.list('/admin/payouts', { secured: true, signal, query: { status, page, limit: PAYOUTS_PAGE_SIZE } }),
    enabled: user !== null,
    staleTime: ALWAYS_REFRESH,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** GET /api/admin/payouts/upcoming: what the next run would pay. */
export const upcomingPayoutsQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: earningsKeys.upcoming(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/admin/payouts/upcoming', { secured: true, signal }),
    enabled: user !== null,
    staleTime: ALWAYS_REFRESH,
  });

/** GET /api/admin/payout-batches?page=&limit= (admin; X-Total-Count). */
export const payoutBatchesQueryOptions = (user: UserScope | null, page: number) =>
  queryOptions({
    queryKey: earningsKeys.batches(user?.id ?? '', page),
    queryFn: ({ signal }) =>
      apiClient.list('/admin/payout-batches', { secured: true, signal, query: { page, limit: PAYOUTS_PAGE_SIZE } }),
    enabled: user !== null,
    staleTime: ALWAYS_REFRESH,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** GET /api/admin/earnings/revenue: platform fee revenue of the last 12 months, oldest first. */
export const feeRevenueQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: earningsKeys.revenue(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/admin/earnings/revenue', { secured: true, signal }),
    enabled: user !== null,
    staleTime: ALWAYS_REFRESH,
  });

/** GET /api/admin/disputes?status=&page=&limit= (admin; X-Total-Count). */
export const disputesQueryOptions = (user: UserScope | null, status: DisputeStatus | 'all', page: number) =>
  queryOptions({
    queryKey: earningsKeys.disputes(user?.id ?? '', status, page),
    queryFn: ({ signal }) =>
      apiClient.list('/admin/disputes', {
        secured: true,
        signal,
        query: { page, limit: DISPUTES_PAGE_SIZE, ...(status === 'all' ? {} : { status }) },
      }),
    enabled: user !== null,
    staleTime: ALWAYS_REFRESH,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** GET /api/admin/teachers/:id/fee-rate (admin). */
export const teacherFeeRateQueryOptions = (user: UserScope | null, teacherId: string) =>
  queryOptions({
    queryKey: earningsKeys.feeRate(user?.id ?? '', teacherId),
    queryFn: ({ signal }) =>
      apiClient.get('/admin/teachers/{id}/fee-rate', { path: { id: teacherId }, secured: true, signal }),
    enabled: user !== null && teacherId !== '',
  });

/** Every money figure the admin sees follows a payout action: one invalidation of the whole root. */
function useInvalidateEarnings() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return () => queryClient.invalidateQueries({ queryKey: earningsKeys.all(userId) });
}

/** POST /api/admin/payouts/run: the scheduled job's run, now. */
export function useRunPayouts() {
  const invalidate = useInvalidateEarnings();
  return useMutation({
    mutationFn: () => apiClient.post('/admin/payouts/run', undefined, { secured: true }),
    onSuccess: invalidate,
  });
}

/** POST /api/admin/payouts/:id/retry (a failed payout). */
export function useRetryPayout() {
  const invalidate = useInvalidateEarnings();
  return useMutation({
    mutationFn: (id: string) => apiClient.post('/admin/payouts/{id}/retry', undefined, { path: { id }, secured: true }),
    onSettled: invalidate,
  });
}

/** POST /api/admin/payout-batches: the manual payouts waiting, gathered into one batch. */
export function useCreatePayoutBatch() {
  const invalidate = useInvalidateEarnings();
  return useMutation({
    mutationFn: () => apiClient.post('/admin/payout-batches', undefined, { secured: true }),
    onSuccess: invalidate,
  });
}

/** POST /api/admin/payout-batches/:id/mark-paid: the bank transfers were made. */
export function useMarkBatchPaid() {
  const invalidate = useInvalidateEarnings();
  return useMutation({
    mutationFn: (id: string) =>
      apiClient.post('/admin/payout-batches/{id}/mark-paid', undefined, { path: { id }, secured: true }),
    onSettled: invalidate,
  });
}

/** GET /api/admin/payout-batches/:id/csv: the bank transfers to make, saved as a file. */
export async function downloadBatchCsv(id: string): Promise<void> {
  const { data } = await apiRequest<string>('/admin/payout-batches/{id}/csv', { secured: true, path: { id } });
  saveText(data, `skillhive-payout-batch-${id}.csv`);
}

/** PUT /api/admin/teachers/:id/fee-rate {feePercent} (admin; audited by the server). */
export function useSetFeeRate() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: ({ teacherId, body }: { teacherId: string; body: SetFeeRateBody }) =>
      apiClient.put('/admin/teachers/{id}/fee-rate', body, { path: { id: teacherId }, secured: true }),
    onSuccess: (saved, { teacherId }) => queryClient.setQueryData(earningsKeys.feeRate(userId, teacherId), saved),
  });
}
