import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateClassBody, UpdateClassBody } from '@skillhive/shared/rules/class-form';
import { apiClient } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { classKeys, invalidateClasses } from '../../classes/api/class-keys.ts';

export const TEACHER_CLASSES_PAGE_SIZE = 9;

/**
 * GET /api/classes/:id as its teacher or an admin sees it (any status), under their own key root
 * (features/classes/api/class-keys.ts); the public class page reads `classQueryOptions`.
 */
export const managedClassQueryOptions = (user: UserScope | null, id: string) =>
  queryOptions({
    queryKey: classKeys.managed(user?.id ?? '', id),
    queryFn: ({ signal }) => apiClient.get('/classes/{id}', { path: { id }, secured: true, signal }),
    enabled: user !== null,
  });

/** GET /api/classes/:id/stats (its teacher or an admin). */
export const classStatsQueryOptions = (user: UserScope | null, id: string) =>
  queryOptions({
    queryKey: classKeys.stats(user?.id ?? '', id),
    queryFn: ({ signal }) => apiClient.get('/classes/{id}/stats', { path: { id }, secured: true, signal }),
    enabled: user !== null,
  });

/** GET /api/classes/:id/revision: the class's pending (or last rejected) changes (its teacher or an admin). */
export const classRevisionQueryOptions = (user: UserScope | null, id: string) =>
  queryOptions({
    queryKey: classKeys.revision(user?.id ?? '', id),
    queryFn: ({ signal }) => apiClient.get('/classes/{id}/revision', { path: { id }, secured: true, signal }),
    enabled: user !== null,
  });

/** What the teacher is told after saving: an accepted class's edit waits for review (DESIGN §4). */
export const SENT_FOR_REVIEW_MESSAGE =
  'Your changes were sent for review; the approved version stays on sale until an admin approves them.';

/** GET /api/classes/teacher/:email, one page (myClass grid). */
export const teacherClassesQueryOptions = (user: UserScope | null, page: number) =>
  queryOptions({
    queryKey: classKeys.teacherPage(user?.id ?? '', page),
    queryFn: ({ signal }) =>
      apiClient.list('/classes/teacher/{email}', {
        path: { email: user?.email ?? '' },
        secured: true,
        signal,
        query: { page, limit: TEACHER_CLASSES_PAGE_SIZE },
      }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** POST /api/classes → {insertedId}; name, e-mail and status come from the server. */
export function useCreateClass() {
  const queryClient = useQueryClient();
  const user = useUserScope();
  return useMutation({
    mutationFn: (body: CreateClassBody) => apiClient.post('/classes', body, { secured: true }),
    onSuccess: () => invalidateClasses(queryClient, user?.id ?? null),
  });
}

/**
 * PATCH /api/classes/:id → {modifiedCount, success} (DESIGN §1.7), and pendingReview when the
 * class is accepted and the edit became a revision for an admin to review (DESIGN §4).
 */
export function useUpdateClass(id: string) {
  const queryClient = useQueryClient();
  const user = useUserScope();
  return useMutation({
    mutationFn: (body: UpdateClassBody) => apiClient.patch('/classes/{id}', body, { path: { id }, secured: true }),
    onSuccess: () => invalidateClasses(queryClient, user?.id ?? null),
  });
}

/** DELETE /api/classes/:id → {deletedCount}; a class with paid enrollments is archived instead. */
export function useDeleteClass() {
  const queryClient = useQueryClient();
  const user = useUserScope();
  return useMutation({
    mutationFn: (id: string) => apiClient.delete('/classes/{id}', { path: { id }, secured: true }),
    onSuccess: () => invalidateClasses(queryClient, user?.id ?? null),
  });
}
