import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateEnrollmentResponse, Enrollment } from '@skillhive/shared/enrollments';
import type { CreateReviewBody } from '@skillhive/shared/reviews';
import { apiClient } from '../../../lib/api-client.ts';

export const ENROLLMENTS_PAGE_SIZE = 9;
/** The cart is every pending enrolment; the server's total covers all of them (DESIGN §1.3). */
const CART_LIMIT = 100;

export const enrollmentKeys = {
  all: ['enrolled'] as const,
  mine: (email: string) => ['enrolled', email] as const,
  page: (email: string, page: number) => ['enrolled', email, 'page', page] as const,
  cart: (email: string) => ['enrolled', email, 'cart'] as const,
};

const path = (email: string) => `/enrolled/${encodeURIComponent(email)}`;

/** GET /api/enrolled/:email, one page (myEnrollClass); total from X-Total-Count. */
export const enrollmentsQueryOptions = (email: string, page: number) =>
  queryOptions({
    queryKey: enrollmentKeys.page(email, page),
    queryFn: ({ signal }) =>
      apiClient.list<Enrollment>(path(email), { secured: true, signal, query: { page, limit: ENROLLMENTS_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

/** The cart of the payment page: the caller's pending enrolments. */
export const cartQueryOptions = (email: string) =>
  queryOptions({
    queryKey: enrollmentKeys.cart(email),
    queryFn: async ({ signal }) => {
      const { items } = await apiClient.list<Enrollment>(path(email), {
        secured: true,
        signal,
        query: { status: 'pending', page: 1, limit: CART_LIMIT },
      });
      return items.filter((item) => item.status === 'pending');
    },
  });

/**
 * POST /api/enrolled {enrollId} → {insertedId, created, status}; a second call returns the existing
 * record (DESIGN §1.4), whose status says whether it is paid already.
 */
export function useCreateEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enrollId: string) =>
      apiClient.post<CreateEnrollmentResponse>('/enrolled', { enrollId }, { secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrollmentKeys.all }),
  });
}

/** DELETE /api/enrolled/:id (its student; pending only): corrects the cart. */
export function useRemoveEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiClient.delete<{ deletedCount: number }>(`/enrolled/${encodeURIComponent(id)}`, { secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrollmentKeys.all }),
  });
}

/** POST /api/reviews {classId, rating, details}: one per class, a second post edits it. */
export function useCreateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReviewBody) =>
      apiClient.post<{ insertedId: string | null }>('/reviews', body, { secured: true }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['reviews'] }),
        // Class responses carry the average rating and the review count.
        queryClient.invalidateQueries({ queryKey: ['classes'] }),
      ]);
    },
  });
}
