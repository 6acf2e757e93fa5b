import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';

/** GET /api/config: which sign-in providers and which payment gateway this deployment offers. */
export interface AppConfig {
  auth: { google: boolean; oidc: { name: string } | null };
  payments: { gateway: 'test' | 'stripe'; publishableKey: string | null; stripeJsUrl: string | null };
  /** Admins can read the outbox (no SMTP server configured, not production). */
  mailbox: boolean;
}

export const appConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: ({ signal }) => apiClient.get('/config', { signal }),
    staleTime: 10 * 60_000,
  });

export function useAppConfig() {
  return useQuery(appConfigQueryOptions());
}
