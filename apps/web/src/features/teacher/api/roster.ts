import { queryOptions } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, type UserScope } from '../../../lib/query-client.ts';
import { classKeys } from '../../classes/api/class-keys.ts';

export const ROSTER_PAGE_SIZE = 10;

/** GET /api/teachers/me/classes/:id/roster?page=&limit= (the class's teacher; X-Total-Count). */
export const classRosterQueryOptions = (user: UserScope | null, classId: string, page: number) =>
  queryOptions({
    // Under the teacher's own key root: a roster is theirs alone.
    queryKey: classKeys.roster(user?.id ?? '', classId, page),
    queryFn: ({ signal }) =>
      apiClient.list('/teachers/me/classes/{id}/roster', {
        path: { id: classId },
        secured: true,
        signal,
        query: { page, limit: ROSTER_PAGE_SIZE },
      }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });
