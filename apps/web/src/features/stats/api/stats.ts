import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { userScopeKey, type UserScope } from '../../../lib/query-client.ts';

/**
 * Figures computed by the server, under the root of the person who asks: another
 * user never sees them, and they go at sign-out.
 */
export const statsKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'stats'] as const,
  teacher: (userId: string) => [...statsKeys.all(userId), 'teacher'] as const,
  admin: (userId: string) => [...statsKeys.all(userId), 'admin'] as const,
};

/**
 * Money and counts change with every payment elsewhere: a home shows its cached figures at once
 * and asks again each time it is opened (staleTime 0), so no mutation has to know about them.
 */
const ALWAYS_REFRESH = 0;

/** GET /api/teachers/me/stats: the caller's earnings, per class and per month (teachers only). */
export const teacherStatsQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: statsKeys.teacher(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/teachers/me/stats', { secured: true, signal }),
    enabled: user !== null,
    staleTime: ALWAYS_REFRESH,
  });

/** GET /api/admin/stats: accounts by role, classes by status and revenue (admins only). */
export const adminStatsQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: statsKeys.admin(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/admin/stats', { secured: true, signal }),
    enabled: user !== null,
    staleTime: ALWAYS_REFRESH,
  });

const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });

/** 'YYYY-MM' (a UTC month) → "Mar": twelve consecutive months never repeat a name, and it fits under a bar. */
export function monthLabel(month: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  return /^\d{4}-\d{2}$/.test(month) && !Number.isNaN(date.getTime()) ? monthFormat.format(date) : month;
}

const compactMoney = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});

/** 1234.5 → "$1.2K": short enough for a chart's axis. */
export function formatCompactPrice(amount: number): string {
  return compactMoney.format(amount);
}
