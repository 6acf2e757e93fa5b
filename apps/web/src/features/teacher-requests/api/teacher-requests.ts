import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTeacherRequestBody } from '@skillhive/shared/rules/teach-form';
import { apiClient } from '../../../lib/api-client.ts';
import { userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

/** The caller's own request and the admin's list of everyone's, under the reader's key root. */
export const teacherRequestKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'teacher-requests'] as const,
  mine: (userId: string) => [...teacherRequestKeys.all(userId), 'mine'] as const,
  list: (userId: string, params: object) => [...teacherRequestKeys.all(userId), 'list', params] as const,
};

/** GET /api/teachers/teacher-requests/mine: the caller's latest request, or null. */
export const myTeacherRequestQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: teacherRequestKeys.mine(user?.id ?? ''),
    queryFn: async ({ signal }) =>
      (await apiClient.get('/teachers/teacher-requests/mine', { secured: true, signal })) ?? null,
    enabled: user !== null,
    // A decision is made elsewhere (by an admin): seen when the applicant comes back to the tab.
    refetchOnWindowFocus: 'always',
  });

/** POST /api/teachers/teacher-requests: name, e-mail, image and status come from the server. */
export function useCreateTeacherRequest() {
  const queryClient = useQueryClient();
  const user = useUserScope();
  return useMutation({
    mutationFn: (body: CreateTeacherRequestBody) =>
      apiClient.post('/teachers/teacher-requests', body, { secured: true }),
    onSuccess: () => (user ? queryClient.invalidateQueries({ queryKey: teacherRequestKeys.all(user.id) }) : undefined),
  });
}
