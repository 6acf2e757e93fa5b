import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ClassRosterEntry } from '@skillhive/shared/enrollments';
import { apiClient } from '../../../lib/api-client.ts';

export const ROSTER_PAGE_SIZE = 10;

/** Keyed by the teacher who asks, outside the public `classes` root: a roster is theirs alone. */
export const rosterKeys = {
  all: ['roster'] as const,
  page: (email: string, classId: string, page: number) => ['roster', email, classId, { page }] as const,
};

/** GET /api/teachers/me/classes/:id/roster?page=&limit= (the class's teacher; X-Total-Count). */
export const classRosterQueryOptions = (email: string, classId: string, page: number) =>
  queryOptions({
    queryKey: rosterKeys.page(email, classId, page),
    queryFn: ({ signal }) =>
      apiClient.list<ClassRosterEntry>(`/teachers/me/classes/${encodeURIComponent(classId)}/roster`, {
        secured: true,
        signal,
        query: { page, limit: ROSTER_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
