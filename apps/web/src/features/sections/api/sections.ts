import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CancelSectionBody, RescheduleSectionBody, SectionFormBody } from '@skillhive/shared/rules/section-forms';
import type { RescheduleAnswer } from '@skillhive/shared/rules/sections';
import { apiClient } from '../../../lib/api-client.ts';
import { type UserScope, userScopeKey } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { contentKeys } from '../../content/api/content.ts';

/**
 * A class's sections as its teacher edits them (decision 041), under the class's content key: a
 * class's first session makes its first section, so every content change refetches them too.
 */
export const sectionKeys = {
  ofClass: (userId: string, classId: string) => [...contentKeys.ofClass(userId, classId), 'sections'] as const,
};

/** GET /api/classes/:id/schedule (public, decision 042): upcoming sections with seats left, never links. */
export const classScheduleQueryOptions = (classId: string) =>
  queryOptions({
    queryKey: ['class-schedule', classId] as const,
    queryFn: ({ signal }) => apiClient.get('/classes/{id}/schedule', { path: { id: classId }, signal }),
  });

/** GET /api/classes/:id/sections (the class's teacher). */
export const classSectionsQueryOptions = (user: UserScope | null, classId: string) =>
  queryOptions({
    queryKey: sectionKeys.ofClass(user?.id ?? '', classId),
    queryFn: ({ signal }) => apiClient.get('/classes/{id}/sections', { path: { id: classId }, secured: true, signal }),
    enabled: user !== null,
  });

/** A change to a section refetches the class's content, its sections with it. */
function useSectionMutation<Input, Output>(classId: string, run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contentKeys.ofClass(userId, classId) }),
  });
}

export function useCreateSection(classId: string) {
  return useSectionMutation(classId, (body: SectionFormBody) =>
    apiClient.post('/classes/{id}/sections', body, { path: { id: classId }, secured: true }),
  );
}

export function useUpdateSection(classId: string) {
  return useSectionMutation(classId, ({ id, body }: { id: string; body: SectionFormBody }) =>
    apiClient.patch('/sections/{id}', body, { path: { id }, secured: true }),
  );
}

/** "Section 2": the teacher's order, oldest first, as the sections and session editors name them. */
export function sectionLabel(index: number): string {
  return `Section ${index + 1}`;
}

export function useCancelSection(classId: string) {
  return useSectionMutation(classId, ({ id, body }: { id: string; body: CancelSectionBody }) =>
    apiClient.post('/sections/{id}/cancel', body, { path: { id }, secured: true }),
  );
}

export function useRescheduleSection(classId: string) {
  return useSectionMutation(classId, ({ id, body }: { id: string; body: RescheduleSectionBody }) =>
    apiClient.post('/sections/{id}/reschedule', body, { path: { id }, secured: true }),
  );
}

/** A student's open choices after a section they paid for moved (decision 052). */
export const rescheduleOfferKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'reschedule-offers'] as const,
};

/** GET /api/reschedule-offers (the signed-in student's own). */
export const rescheduleOffersQueryOptions = (user: UserScope | null) =>
  queryOptions({
    queryKey: rescheduleOfferKeys.all(user?.id ?? ''),
    queryFn: ({ signal }) => apiClient.get('/reschedule-offers', { secured: true, signal }),
    enabled: user !== null,
  });

/** Keep the seat, or be refunded in full: the offers, enrollments and payments refetch. */
export function useAnswerRescheduleOffer() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: ({ enrollmentId, answer }: { enrollmentId: string; answer: RescheduleAnswer }) =>
      apiClient.post('/reschedule-offers/{id}', { answer }, { path: { id: enrollmentId }, secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userScopeKey(userId) }),
  });
}
