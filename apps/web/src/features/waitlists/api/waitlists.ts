import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { type UserScope, userScopeKey } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { classScheduleQueryOptions } from '../../sections/api/sections.ts';

/**
 * Waitlists of full sections (decision 051): the signed-in person's own entries, joining and
 * leaving, and a section's queue for its teacher. Every change refetches the person's entries and
 * the class's public schedule (whose seats left count the people waiting).
 */
export const waitlistKeys = {
  mine: (userId: string) => [...userScopeKey(userId), 'waitlist'] as const,
  ofSection: (userId: string, sectionId: string) =>
    [...userScopeKey(userId), 'waitlist', 'section', sectionId] as const,
};

/** GET /api/waitlist: the caller's live entries (waiting with a position, or offered a seat until a time). */
export const myWaitlistQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: waitlistKeys.mine(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/waitlist', { secured: true, signal }),
    enabled: user !== null,
  });

/** GET /api/sections/:id/waitlist: the section's queue (its class's teacher, or an admin). */
export const sectionWaitlistQueryOptions = (user: UserScope | null, sectionId: string) =>
  queryOptions({
    queryKey: waitlistKeys.ofSection(user?.id ?? '', sectionId),
    queryFn: ({ signal }) =>
      apiClient.get('/sections/{id}/waitlist', { path: { id: sectionId }, secured: true, signal }),
    enabled: user !== null,
  });

function useWaitlistMutation<Output>(classId: string, run: (sectionId: string) => Promise<Output>) {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: run,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: waitlistKeys.mine(userId) }),
        queryClient.invalidateQueries({ queryKey: classScheduleQueryOptions(classId).queryKey }),
      ]);
    },
  });
}

export function useJoinWaitlist(classId: string) {
  return useWaitlistMutation(classId, (sectionId) =>
    apiClient.post('/sections/{id}/waitlist', undefined, { path: { id: sectionId }, secured: true }),
  );
}

export function useLeaveWaitlist(classId: string) {
  return useWaitlistMutation(classId, (sectionId) =>
    apiClient.delete('/sections/{id}/waitlist', { path: { id: sectionId }, secured: true }),
  );
}
