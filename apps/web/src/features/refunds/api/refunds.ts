import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateRefundResponse } from '@skillhive/shared/contracts/refunds';
import type { RefundRequestStatus } from '@skillhive/shared/rules/constants';
import { apiClient, apiRequest } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

export const REFUND_REQUESTS_PAGE_SIZE = 20;
export const PAYMENTS_SEARCH_LIMIT = 20;

/** Refund data under the signed-in person's own key root (admin lists, or a student's requests). */
export const refundKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'refunds'] as const,
  requests: (userId: string, status: RefundRequestStatus | 'all', page: number) =>
    [...refundKeys.all(userId), 'requests', status, page] as const,
  payments: (userId: string, q: string) => [...refundKeys.all(userId), 'payments', q] as const,
  pending: (userId: string, page: number) => [...refundKeys.all(userId), 'pending', page] as const,
  mine: (userId: string) => [...refundKeys.all(userId), 'mine'] as const,
};

/** GET /api/admin/refund-requests?status=&page= (admin; newest first; X-Total-Count). */
export const refundRequestsQueryOptions = (user: UserScope | null, status: RefundRequestStatus | 'all', page: number) =>
  queryOptions({
    queryKey: refundKeys.requests(user?.id ?? '', status, page),
    queryFn: ({ signal }) =>
      apiClient.list('/admin/refund-requests', {
        secured: true,
        signal,
        query: { page, limit: REFUND_REQUESTS_PAGE_SIZE, ...(status === 'all' ? {} : { status }) },
      }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

export const PENDING_REFUNDS_PAGE_SIZE = 20;

/** GET /api/admin/refunds/pending?page= (admin; oldest first; X-Total-Count): refunds in progress (decision 031). */
export const pendingRefundsQueryOptions = (user: UserScope | null, page: number) =>
  queryOptions({
    queryKey: refundKeys.pending(user?.id ?? '', page),
    queryFn: ({ signal }) =>
      apiClient.list('/admin/refunds/pending', {
        secured: true,
        signal,
        query: { page, limit: PENDING_REFUNDS_PAGE_SIZE },
      }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** GET /api/admin/payments?q= (admin): by the e-mail paid with or an exact transaction id. */
export const paymentSearchQueryOptions = (user: UserScope | null, q: string) =>
  queryOptions({
    queryKey: refundKeys.payments(user?.id ?? '', q),
    queryFn: ({ signal }) =>
      apiClient.list('/admin/payments', {
        secured: true,
        signal,
        query: { q, page: 1, limit: PAYMENTS_SEARCH_LIMIT },
      }),
    enabled: user !== null && q.length > 0,
  });

/** GET /api/refund-requests/mine: the student's requests and the window to ask in. */
export const myRefundRequestsQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: refundKeys.mine(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/refund-requests/mine', { secured: true, signal }),
    enabled: user !== null,
  });

/**
 * Everything a refund changes for the person who made or asked for it: refund lists, the
 * enrollments (a refunded line), payment history and stats, all under their own key root.
 */
function useInvalidateOwnData() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return () => queryClient.invalidateQueries({ queryKey: userScopeKey(userId) });
}

/**
 * POST /api/admin/payments/:id/refunds {enrollmentId?, reason} (admin). 202: recorded, and the
 * refund finishes by itself (decision 031); the body is the same.
 */
export function useRefundPayment() {
  const invalidate = useInvalidateOwnData();
  return useMutation({
    mutationFn: ({ paymentId, enrollmentId, reason }: { paymentId: string; enrollmentId?: string; reason: string }) =>
      apiRequest<CreateRefundResponse>('/admin/payments/{id}/refunds', {
        method: 'POST',
        path: { id: paymentId },
        body: { reason, ...(enrollmentId ? { enrollmentId } : {}) },
        secured: true,
      }).then(({ data, status }) => ({ ...data, inProgress: status === 202 })),
    onSuccess: invalidate,
  });
}

/** POST /api/admin/refund-requests/:id/approve | decline {reason} (admin). */
export function useDecideRefundRequest() {
  const invalidate = useInvalidateOwnData();
  return useMutation({
    mutationFn: (input: { id: string; decision: 'approve' } | { id: string; decision: 'decline'; reason: string }) =>
      input.decision === 'decline'
        ? apiClient
            .post(
              '/admin/refund-requests/{id}/decline',
              { reason: input.reason },
              { path: { id: input.id }, secured: true },
            )
            .then(() => ({ inProgress: false }))
        : // 202: approved, and the refund finishes by itself (decision 031); the body is the same.
          apiRequest('/admin/refund-requests/{id}/approve', {
            method: 'POST',
            path: { id: input.id },
            secured: true,
          }).then(({ status }) => ({ inProgress: status === 202 })),
    onSuccess: invalidate,
  });
}

/** POST /api/refund-requests {enrollmentId, reason} (the enrollment's student). */
export function useRequestRefund() {
  const invalidate = useInvalidateOwnData();
  return useMutation({
    mutationFn: (body: { enrollmentId: string; reason: string }) =>
      apiClient.post('/refund-requests', body, { secured: true }),
    onSuccess: invalidate,
  });
}
