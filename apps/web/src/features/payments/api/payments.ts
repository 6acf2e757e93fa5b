import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConfirmCardBody, CreatePaymentBody } from '@skillhive/shared/contracts/payments';
import { apiClient } from '../../../lib/api-client.ts';
import { userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { invalidateClasses } from '../../classes/api/class-keys.ts';
import { enrollmentKeys } from '../../enrollments/api/enrollments.ts';

/** The payer's intents, under their key root. */
export const paymentKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'payments'] as const,
  /** One intent per cart content and coupon: removing an item or applying a code asks the server for a new total. */
  intent: (userId: string, cartIds: readonly string[], couponCode: string | null = null) =>
    [...paymentKeys.all(userId), 'intent', [...cartIds].sort().join(','), couponCode ?? ''] as const,
};

/**
 * POST /api/create-payment-intent: the server totals the caller's pending enrollments (a price in
 * the body would be ignored, DESIGN §1.3). Kept as a query keyed by the cart so the page asks
 * once per cart, not on every render; never reused after leaving the page.
 */
export const paymentIntentQueryOptions = (
  user: UserScope | null,
  cartIds: readonly string[],
  couponCode: string | null = null,
) =>
  queryOptions({
    queryKey: paymentKeys.intent(user?.id ?? '', cartIds, couponCode),
    // With a coupon code the answer prices each line with it (decision 019); a refused code is a 404/409.
    queryFn: () =>
      apiClient.post('/create-payment-intent', couponCode ? { couponCode } : {}, {
        secured: true,
      }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

export interface GatewayResult {
  status: 'succeeded' | 'requires_action';
  transactionId?: string;
}

/** POST /api/test-gateway/confirm: the built-in test gateway (Stripe's test card numbers). */
export function confirmTestCard(body: ConfirmCardBody): Promise<GatewayResult> {
  return apiClient.post('/test-gateway/confirm', body, { secured: true });
}

/** POST /api/test-gateway/authenticate: the 3-D Secure step of card 4000 0025 0000 3155. */
export function authenticateTestCard(body: { clientSecret: string; approve: boolean }): Promise<GatewayResult> {
  return apiClient.post('/test-gateway/authenticate', body, { secured: true });
}

/** POST /api/payments (spec §3 fields) → {paymentResult: {insertedId}}; marks the cart paid. */
export function useRecordPayment() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (body: CreatePaymentBody) => apiClient.post('/payments', body, { secured: true }),
    onSuccess: () => {
      // Not awaited: the page moves on to myEnrollClass, which refetches what it shows. The page
      // stops asking for an intent once paid (the cart is now empty).
      void queryClient.invalidateQueries({ queryKey: enrollmentKeys.all(userId) });
      void invalidateClasses(queryClient, userId);
    },
  });
}
