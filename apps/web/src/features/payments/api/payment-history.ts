import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, userScopeKey, type UserScope } from '../../../lib/query-client.ts';

export const PAYMENT_HISTORY_PAGE_SIZE = 10;

/** The signed-in person's own payments and receipts, under their key root. */
export const paymentHistoryKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'paymentHistory'] as const,
  page: (userId: string, page: number) => [...paymentHistoryKeys.all(userId), 'page', page] as const,
  receipt: (userId: string, id: string) => [...paymentHistoryKeys.all(userId), 'receipt', id] as const,
};

/**
 * GET /api/payments/me, one page, newest first; total from X-Total-Count. Read again on every
 * visit (staleTime 0): a payment or refund made meanwhile shows at once.
 */
export const paymentHistoryQueryOptions = (user: UserScope | null, page: number) =>
  queryOptions({
    queryKey: paymentHistoryKeys.page(user?.id ?? '', page),
    queryFn: ({ signal }) =>
      apiClient.list('/payments/me', {
        secured: true,
        signal,
        query: { page, limit: PAYMENT_HISTORY_PAGE_SIZE },
      }),
    enabled: user !== null,
    staleTime: 0,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** GET /api/payments/me/:id: one of the caller's payments as a receipt (another's is a 404). */
export const receiptQueryOptions = (user: UserScope | null, id: string) =>
  queryOptions({
    queryKey: paymentHistoryKeys.receipt(user?.id ?? '', id),
    queryFn: ({ signal }) => apiClient.get('/payments/me/{id}', { path: { id }, secured: true, signal }),
    enabled: user !== null,
    staleTime: 0,
  });
