import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCouponBody } from '@skillhive/shared/rules/coupon-form';
import { apiClient } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

export const COUPONS_PAGE_SIZE = 20;

/** Whose coupons a page manages: the site's (an admin) or the signed-in teacher's own. */
export type CouponOwner = 'site' | 'teacher';

const basePath = (owner: CouponOwner) => (owner === 'site' ? '/admin/coupons' : '/teachers/me/coupons');

/** Coupons under the signed-in person's key root (they are theirs to manage). */
export const couponKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'coupons'] as const,
  list: (userId: string, owner: CouponOwner, page: number) => [...couponKeys.all(userId), owner, page] as const,
};

/** GET /api/admin/coupons (admins) or /api/teachers/me/coupons (teachers): newest first, X-Total-Count. */
export const couponsQueryOptions = (user: UserScope | null, owner: CouponOwner, page: number) =>
  queryOptions({
    queryKey: couponKeys.list(user?.id ?? '', owner, page),
    queryFn: ({ signal }) =>
      apiClient.list(basePath(owner), {
        secured: true,
        signal,
        query: { page, limit: COUPONS_PAGE_SIZE },
      }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

function useInvalidateCoupons() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return () => queryClient.invalidateQueries({ queryKey: couponKeys.all(userId) });
}

/** POST /api/admin/coupons or /api/teachers/me/coupons with the shared CreateCouponBody. */
export function useCreateCoupon(owner: CouponOwner) {
  const invalidate = useInvalidateCoupons();
  return useMutation({
    mutationFn: (body: CreateCouponBody) => apiClient.post(basePath(owner), body, { secured: true }),
    onSuccess: invalidate,
  });
}

/** POST /api/coupons/:id/disable (its teacher, or an admin). */
export function useDisableCoupon() {
  const invalidate = useInvalidateCoupons();
  return useMutation({
    mutationFn: (id: string) => apiClient.post('/coupons/{id}/disable', undefined, { path: { id }, secured: true }),
    onSuccess: invalidate,
  });
}
