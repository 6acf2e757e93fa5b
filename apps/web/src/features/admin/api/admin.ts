import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClassItem, ClassRevision } from '@skillhive/shared/classes';
import {
  CLASS_STATUSES,
  TEACHER_REQUEST_STATUSES,
  type ClassStatus,
  type TeacherRequestStatus,
} from '@skillhive/shared/constants';
import type { TeacherRequest } from '@skillhive/shared/teacher-requests';
import { apiClient } from '../../../lib/api-client.ts';
import { teacherRequestKeys } from '../../teacher-requests/api/teacher-requests.ts';
import { classKeys } from '../../teacher/api/classes.ts';
import { auditKeys } from '../../audit/api/audit.ts';

export const ADMIN_PAGE_SIZE = 10;

export interface StatusPageParams<S extends string> {
  page: number;
  status: S | '';
}

export const adminKeys = {
  teacherRequests: (params: StatusPageParams<TeacherRequestStatus>) =>
    [...teacherRequestKeys.all, 'list', params] as const,
  classes: (params: StatusPageParams<ClassStatus>) => [...classKeys.all, 'admin', params] as const,
  revisions: (page: number) => [...classKeys.all, 'admin', 'revisions', { page }] as const,
};

/** Reads ?status= leniently for a list filtered by one of `allowed`. */
export function parseStatus<S extends string>(value: string | null, allowed: readonly S[]): S | '' {
  return value && (allowed as readonly string[]).includes(value) ? (value as S) : '';
}

export const TEACHER_REQUEST_FILTERS = TEACHER_REQUEST_STATUSES;
/** Archived classes are hidden from moderation (DESIGN §4); the filter offers the three of spec §4. */
export const CLASS_FILTERS = CLASS_STATUSES.filter((s) => s !== 'archived');

/** GET /api/teachers/teacher-requests?page=&limit=&status= (admin). */
export const teacherRequestsQueryOptions = (params: StatusPageParams<TeacherRequestStatus>) =>
  queryOptions({
    queryKey: adminKeys.teacherRequests(params),
    queryFn: ({ signal }) =>
      apiClient.list<TeacherRequest>('/teachers/teacher-requests', {
        secured: true,
        signal,
        query: { page: params.page, limit: ADMIN_PAGE_SIZE, status: params.status || undefined },
      }),
    placeholderData: keepPreviousData,
  });

/** GET /api/classes?status=&page=&limit= (admins may filter by status). */
export const adminClassesQueryOptions = (params: StatusPageParams<ClassStatus>) =>
  queryOptions({
    queryKey: adminKeys.classes(params),
    queryFn: ({ signal }) =>
      apiClient.list<ClassItem>('/classes', {
        secured: true,
        signal,
        query: { page: params.page, limit: ADMIN_PAGE_SIZE, status: params.status || undefined },
      }),
    placeholderData: keepPreviousData,
  });

export const REVISIONS_PAGE_SIZE = 5;

/** GET /api/classes/revisions?page=&limit= (admin): edits of accepted classes waiting for review. */
export const pendingRevisionsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: adminKeys.revisions(page),
    queryFn: ({ signal }) =>
      apiClient.list<ClassRevision>('/classes/revisions', {
        secured: true,
        signal,
        query: { page, limit: REVISIONS_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });

type Decision = 'approve' | 'reject';

/** PATCH /api/teachers/teacher-requests/:id/approve|reject (admin; only while pending). */
export function useDecideTeacherRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: Decision }) =>
      apiClient.patch<{ modifiedCount?: number; success?: boolean }>(
        `/teachers/teacher-requests/${encodeURIComponent(id)}/${decision}`,
        undefined,
        { secured: true },
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teacherRequestKeys.all }),
        // Approval makes the applicant a teacher: role flags and the users table change.
        queryClient.invalidateQueries({ queryKey: ['users'] }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  });
}

/** PATCH /api/classes/class-requests/:id/approve|reject {reason} (admin; only while pending). */
export function useDecideClass() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, reason }: { id: string; decision: Decision; reason?: string }) =>
      apiClient.patch<unknown>(
        `/classes/class-requests/${encodeURIComponent(id)}/${decision}`,
        decision === 'reject' && reason ? { reason } : {},
        { secured: true },
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: classKeys.all }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  });
}

/** PATCH /api/classes/revisions/:id/approve|reject {reason} (admin; only while pending). */
export function useDecideRevision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, reason }: { id: string; decision: Decision; reason?: string }) =>
      apiClient.patch<unknown>(
        `/classes/revisions/${encodeURIComponent(id)}/${decision}`,
        decision === 'reject' && reason ? { reason } : {},
        { secured: true },
      ),
    onSuccess: () =>
      Promise.all([
        // An approval changes the class everywhere it is shown (catalogue included).
        queryClient.invalidateQueries({ queryKey: classKeys.all }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  });
}
