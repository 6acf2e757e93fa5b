import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateReviewBody } from '@skillhive/shared/rules/review-form';
import { apiClient } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { invalidateClasses } from '../../classes/api/class-keys.ts';
import { reviewKeys } from '../../reviews/api/get-reviews.ts';

export const ENROLLMENTS_PAGE_SIZE = 9;
/** The cart is every pending enrollment; the server's total covers all of them (DESIGN §1.3). */
const CART_LIMIT = 100;

/** The student's own enrollments and cart, under their key root. */
export const enrollmentKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'enrolled'] as const,
  page: (userId: string, page: number) => [...enrollmentKeys.all(userId), 'page', page] as const,
  cart: (userId: string) => [...enrollmentKeys.all(userId), 'cart'] as const,
  ofClass: (userId: string, classId: string) => [...enrollmentKeys.all(userId), 'class', classId] as const,
  paidCount: (userId: string) => [...enrollmentKeys.all(userId), 'paid-count'] as const,
  /** Under the enrollments' root: saving a review invalidates it with them. */
  myReviews: (userId: string) => [...enrollmentKeys.all(userId), 'my-reviews'] as const,
};

/** How many of their own reviews My Enrolled Classes reads at once: the API's page maximum. */
const MY_REVIEWS_LIMIT = 100;

/**
 * GET /api/reviews/mine: the caller's own reviews by class id, so a paid class's card says
 * "Your review ★★★★" and its form opens filled in (a second post edits the review).
 */
export const myReviewsQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: enrollmentKeys.myReviews(user?.id ?? ''),
    enabled: user !== null,
    queryFn: async ({ signal }) => {
      const { items } = await apiClient.list('/reviews/mine', {
        secured: true,
        signal,
        query: { page: 1, limit: MY_REVIEWS_LIMIT },
      });
      return new Map(items.map((review) => [review.classId, review]));
    },
  });

/**
 * How many classes the student is enrolled in: paid lines only (X-Total-Count of status=paid),
 * neither cart lines nor refunded ones (decision 003 counts students the same way).
 */
export const paidEnrollmentCountQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: enrollmentKeys.paidCount(user?.id ?? ''),
    enabled: user !== null,
    queryFn: async ({ signal }) => {
      const { total } = await apiClient.list('/enrolled/{emailOrId}', {
        path: { emailOrId: user?.email ?? '' },
        secured: true,
        signal,
        query: { status: 'paid', page: 1, limit: 1 },
      });
      return total;
    },
  });

/** GET /api/enrolled/:email, one page (myEnrollClass); total from X-Total-Count. */
export const enrollmentsQueryOptions = (user: UserScope | null, page: number) =>
  queryOptions({
    queryKey: enrollmentKeys.page(user?.id ?? '', page),
    queryFn: ({ signal }) =>
      apiClient.list('/enrolled/{emailOrId}', {
        path: { emailOrId: user?.email ?? '' },
        secured: true,
        signal,
        query: { page, limit: ENROLLMENTS_PAGE_SIZE },
      }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** The cart of the payment page: the caller's pending enrollments. */
export const cartQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: enrollmentKeys.cart(user?.id ?? ''),
    enabled: user !== null,
    queryFn: async ({ signal }) => {
      const { items } = await apiClient.list('/enrolled/{emailOrId}', {
        path: { emailOrId: user?.email ?? '' },
        secured: true,
        signal,
        query: { status: 'pending', page: 1, limit: CART_LIMIT },
      });
      return items.filter((item) => item.status === 'pending');
    },
  });

/**
 * The signed-in student's enrollment in one class (GET /api/enrolled/:email?classId=), the paid one
 * first: what the public class page offers (Pay Now, or Enrolled). Null when they have none.
 */
export const classEnrollmentQueryOptions = (user: UserScope | null, classId: string) =>
  queryOptions({
    queryKey: enrollmentKeys.ofClass(user?.id ?? '', classId),
    enabled: user !== null,
    queryFn: async ({ signal }) => {
      const { items } = await apiClient.list('/enrolled/{emailOrId}', {
        path: { emailOrId: user?.email ?? '' },
        secured: true,
        signal,
        query: { classId, page: 1, limit: 10 },
      });
      return items.find((item) => item.status === 'paid') ?? items.find((item) => item.status === 'pending') ?? null;
    },
  });

/**
 * POST /api/enrolled {enrollId} → {insertedId, created, status}; a second call returns the existing
 * record (DESIGN §1.4), whose status says whether it is paid already.
 */
export function useCreateEnrollment() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    // A live class is bought per section (decision 042): the one the buyer picked, when any.
    mutationFn: (input: string | { enrollId: string; sectionId?: string | undefined }) =>
      apiClient.post('/enrolled', typeof input === 'string' ? { enrollId: input } : input, { secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrollmentKeys.all(userId) }),
  });
}

/** DELETE /api/enrolled/:id (its student; pending only): corrects the cart. */
export function useRemoveEnrollment() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (id: string) => apiClient.delete('/enrolled/{emailOrId}', { path: { emailOrId: id }, secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrollmentKeys.all(userId) }),
  });
}

/** POST /api/reviews {classId, rating, details}: one per class, a second post edits it. */
export function useCreateReview() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (body: CreateReviewBody) => apiClient.post('/reviews', body, { secured: true }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
        // Class responses carry the average rating and the review count.
        invalidateClasses(queryClient, userId),
        queryClient.invalidateQueries({ queryKey: enrollmentKeys.all(userId) }),
      ]);
    },
  });
}
