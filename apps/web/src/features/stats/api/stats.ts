import { queryOptions } from '@tanstack/react-query';
import type { AdminStats, TeacherStats } from '@skillhive/shared/stats';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * Figures computed by the server (issue 18 §6), under a key root of their own rather than the
 * public `classes` one; the teacher's are keyed by who asks, so another user never sees them.
 */
export const statsKeys = {
  all: ['stats'] as const,
  teacher: (email: string) => ['stats', 'teacher', email] as const,
  admin: () => ['stats', 'admin'] as const,
};

/**
 * Money and counts change with every payment elsewhere: a home shows its cached figures at once
 * and asks again each time it is opened (staleTime 0), so no mutation has to know about them.
 */
const ALWAYS_REFRESH = 0;

/** GET /api/teachers/me/stats: the caller's earnings, per class and per month (teachers only). */
export const teacherStatsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: statsKeys.teacher(email),
    queryFn: ({ signal }) => apiClient.get<TeacherStats>('/teachers/me/stats', { secured: true, signal }),
    staleTime: ALWAYS_REFRESH,
  });

/** GET /api/admin/stats: accounts by role, classes by status and revenue (admins only). */
export const adminStatsQueryOptions = () =>
  queryOptions({
    queryKey: statsKeys.admin(),
    queryFn: ({ signal }) => apiClient.get<AdminStats>('/admin/stats', { secured: true, signal }),
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
