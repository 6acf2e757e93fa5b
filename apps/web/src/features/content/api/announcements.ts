import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AnnouncementFormBody } from '@skillhive/shared/rules/message-form';
import { apiClient } from '../../../lib/api-client.ts';
import type { UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { contentKeys } from './content.ts';

/** A class's announcements (decision 050), under the class's content key: per person, like its content. */
const announcementKeys = {
  ofClass: (userId: string, classId: string) => [...contentKeys.ofClass(userId, classId), 'announcements'] as const,
};

/** GET /api/classes/:id/announcements (paid students, the teacher, admins). */
export const announcementsQueryOptions = (user: UserScope | null, classId: string) =>
  queryOptions({
    queryKey: announcementKeys.ofClass(user?.id ?? '', classId),
    queryFn: ({ signal }) =>
      apiClient.get('/classes/{id}/announcements', { path: { id: classId }, secured: true, signal }),
    enabled: user !== null,
  });

/** POST /api/classes/:id/announcements (its teacher). */
export function usePostAnnouncement(classId: string) {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (body: AnnouncementFormBody) =>
      apiClient.post('/classes/{id}/announcements', body, { path: { id: classId }, secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: announcementKeys.ofClass(userId, classId) }),
  });
}
