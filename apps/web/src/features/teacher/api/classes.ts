import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ClassItem,
  ClassModifiedResponse,
  ClassRevisionResponse,
  ClassStats,
  CreateClassBody,
  UpdateClassBody,
} from '@skillhive/shared/classes';
import { apiClient } from '../../../lib/api-client.ts';

export const TEACHER_CLASSES_PAGE_SIZE = 9;

/**
 * Every class query sits under ['classes'] (the public catalogue's prefix too), so a change made
 * in the dashboard also refreshes the catalogue a visitor sees.
 */
export const classKeys = {
  all: ['classes'] as const,
  detail: (id: string) => ['classes', 'detail', id] as const,
  stats: (id: string) => ['classes', 'stats', id] as const,
  revision: (id: string) => ['classes', 'revision', id] as const,
  teacher: (email: string) => ['classes', 'teacher', email] as const,
  teacherPage: (email: string, page: number) => ['classes', 'teacher', email, { page }] as const,
};

/** GET /api/classes/:id: accepted classes to anyone, any status to its teacher and admins. */
export const classQueryOptions = (id: string) =>
  queryOptions({
    queryKey: classKeys.detail(id),
    queryFn: ({ signal }) => apiClient.get<ClassItem>(`/classes/${encodeURIComponent(id)}`, { secured: true, signal }),
  });

/** GET /api/classes/:id/stats (its teacher or an admin). */
export const classStatsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: classKeys.stats(id),
    queryFn: ({ signal }) =>
      apiClient.get<ClassStats>(`/classes/${encodeURIComponent(id)}/stats`, { secured: true, signal }),
  });

/** GET /api/classes/:id/revision: the class's pending (or last rejected) changes (its teacher or an admin). */
export const classRevisionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: classKeys.revision(id),
    queryFn: ({ signal }) =>
      apiClient.get<ClassRevisionResponse>(`/classes/${encodeURIComponent(id)}/revision`, { secured: true, signal }),
  });

/** What the teacher is told after saving: an accepted class's edit waits for review (DESIGN §4). */
export const SENT_FOR_REVIEW_MESSAGE =
  'Your changes were sent for review; the approved version stays on sale until an admin approves them.';

const teacherPath = (email: string) => `/classes/teacher/${encodeURIComponent(email)}`;

/** GET /api/classes/teacher/:email, one page (myClass grid). */
export const teacherClassesQueryOptions = (email: string, page: number) =>
  queryOptions({
    queryKey: classKeys.teacherPage(email, page),
    queryFn: ({ signal }) =>
      apiClient.list<ClassItem>(teacherPath(email), {
        secured: true,
        signal,
        query: { page, limit: TEACHER_CLASSES_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });

/** POST /api/classes → {insertedId}; name, e-mail and status come from the server. */
export function useCreateClass() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateClassBody) => apiClient.post<{ insertedId: string }>('/classes', body, { secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: classKeys.all }),
  });
}

/**
 * PATCH /api/classes/:id → {modifiedCount, success} (DESIGN §1.7), and pendingReview when the
 * class is accepted and the edit became a revision for an admin to review (DESIGN §4).
 */
export function useUpdateClass(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateClassBody) =>
      apiClient.patch<ClassModifiedResponse>(`/classes/${encodeURIComponent(id)}`, body, { secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: classKeys.all }),
  });
}

/** DELETE /api/classes/:id → {deletedCount}; a class with paid enrolments is archived instead. */
export function useDeleteClass() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiClient.delete<{ deletedCount: number }>(`/classes/${encodeURIComponent(id)}`, { secured: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: classKeys.all }),
  });
}
