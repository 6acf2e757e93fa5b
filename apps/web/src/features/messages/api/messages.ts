import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

/** A person's conversations (decision 045), under their own key root: signing out forgets them. */
export const messageKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'messages'] as const,
  threads: (userId: string) => [...messageKeys.all(userId), 'threads'] as const,
  thread: (userId: string, id: string) => [...messageKeys.all(userId), 'thread', id] as const,
};

/** GET /api/messages/threads: the person's threads, latest first. */
export const threadsQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: messageKeys.threads(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/messages/threads', { secured: true, signal }),
    enabled: user !== null,
  });

/** GET /api/messages/threads/:id: one thread; reading it marks it read, so the inbox is read again. */
export const threadQueryOptions = (user: UserScope | null, id: string) =>
  queryOptions({
    queryKey: messageKeys.thread(user?.id ?? '', id),
    queryFn: ({ signal }) => apiClient.get('/messages/threads/{id}', { path: { id }, secured: true, signal }),
    enabled: user !== null,
  });

/** POST /api/classes/:id/messages: a question to a class's teacher. */
export function useMessageTeacher() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: ({ classId, body }: { classId: string; body: string }) =>
      apiClient.post('/classes/{id}/messages', { body }, { path: { id: classId }, secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all(userId) }),
  });
}

/** POST /api/messages/threads/:id/messages: an answer in a thread. */
export function useReply(threadId: string) {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (body: string) =>
      apiClient.post('/messages/threads/{id}/messages', { body }, { path: { id: threadId }, secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all(userId) }),
  });
}
