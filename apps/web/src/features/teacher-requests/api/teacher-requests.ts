import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTeacherRequestBody, TeacherRequest } from '@skillhive/shared/teacher-requests';
import { apiClient } from '../../../lib/api-client.ts';

export const teacherRequestKeys = {
  all: ['teacher-requests'] as const,
  mine: (email: string) => ['teacher-requests', 'mine', email] as const,
};

/** GET /api/teachers/teacher-requests/mine: the caller's latest request, or null. */
export const myTeacherRequestQueryOptions = (email: string) =>
  queryOptions({
    queryKey: teacherRequestKeys.mine(email),
    queryFn: async ({ signal }) =>
      (await apiClient.get<TeacherRequest | null>('/teachers/teacher-requests/mine', { secured: true, signal })) ??
      null,
  });

/** POST /api/teachers/teacher-requests: name, e-mail, image and status come from the server. */
export function useCreateTeacherRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTeacherRequestBody) =>
      apiClient.post<{ insertedId: string | null }>('/teachers/teacher-requests', body, { secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teacherRequestKeys.all }),
  });
}
