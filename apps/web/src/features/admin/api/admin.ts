import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CLASS_STATUSES,
  TEACHER_REQUEST_STATUSES,
  type ClassStatus,
  type TeacherRequestStatus,
} from '@skillhive/shared/rules/constants';
import { apiClient, isApiError } from '../../../lib/api-client.ts';
import { keepPreviousDataOf, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { roleKeys } from '../../auth/api/get-roles.ts';
import { teacherRequestKeys } from '../../teacher-requests/api/teacher-requests.ts';
import { classKeys, invalidateClasses, type StatusPageParams } from '../../classes/api/class-keys.ts';
import { auditKeys } from '../../audit/api/audit.ts';
import { userKeys } from '../../users/api/users.ts';

export type { StatusPageParams };

export const ADMIN_PAGE_SIZE = 10;

/** `?status=all`: every status. Without ?status= a moderation list shows what waits: pending. */
export const ALL_STATUSES = 'all';

/** Reads ?status= leniently for a list filtered by one of `allowed`: absent → pending, `all` → every status. */
export function parseStatus<S extends string>(value: string | null, allowed: readonly S[]): S | '' {
  if (value === ALL_STATUSES) return '';
  if (value && (allowed as readonly string[]).includes(value)) return value as S;
  return (allowed as readonly string[]).includes('pending') ? ('pending' as S) : '';
}

/** Reads ?q= (the moderation search) as the API takes it. */
export function parseSearch(value: string | null): string {
  return (value ?? '').trim().slice(0, 100);
}

export const TEACHER_REQUEST_FILTERS = TEACHER_REQUEST_STATUSES;
/** Archived classes are hidden from moderation (DESIGN §4); the filter offers the three of spec §4. */
export const CLASS_FILTERS = CLASS_STATUSES.filter((s) => s !== 'archived');

/** A moderation list's query (?page=&limit=&status=&q=): no status means every status. */
function moderationQuery<S extends string>(params: StatusPageParams<S>) {
  return {
    page: params.page,
    limit: ADMIN_PAGE_SIZE,
    status: params.status || undefined,
    q: params.q || undefined,
  };
}

/**
 * GET /api/teachers/teacher-requests?page=&limit=&status=&q= (admin): one page of the filter's
 * results, the previous page kept on screen while the next one loads.
 */
export const teacherRequestsQueryOptions = (user: UserScope | null, params: StatusPageParams<TeacherRequestStatus>) =>
  queryOptions({
    queryKey: teacherRequestKeys.list(user?.id ?? '', params),
    queryFn: ({ signal }) =>
      apiClient.list('/teachers/teacher-requests', { secured: true, signal, query: moderationQuery(params) }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

/** GET /api/classes?status=&q=&page=&limit= (admins may filter by status), as the list above. */
export const adminClassesQueryOptions = (user: UserScope | null, params: StatusPageParams<ClassStatus>) =>
  queryOptions({
    queryKey: classKeys.moderation(user?.id ?? '', params),
    queryFn: ({ signal }) =>
      apiClient.list('/classes', {
        secured: true,
        signal,
        // Without ?status= the API answers the public catalogue, admins included.
        query: { ...moderationQuery(params), status: params.status || ALL_STATUSES },
      }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

export const REVISIONS_PAGE_SIZE = 5;

/** GET /api/classes/revisions?page=&limit= (admin): edits of accepted classes waiting for review. */
export const pendingRevisionsQueryOptions = (user: UserScope | null, page: number) =>
  queryOptions({
    queryKey: classKeys.revisions(user?.id ?? '', page),
    queryFn: ({ signal }) =>
      apiClient.list('/classes/revisions', {
        secured: true,
        signal,
        query: { page, limit: REVISIONS_PAGE_SIZE },
      }),
    enabled: user !== null,
    placeholderData: keepPreviousDataOf(user?.id ?? ''),
  });

type Decision = 'approve' | 'reject';

/** PATCH /api/teachers/teacher-requests/:id/approve|reject (admin; only while pending). */
export function useDecideTeacherRequest() {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: Decision }) =>
      apiClient.patch(`/teachers/teacher-requests/{id}/${decision}`, undefined, { path: { id }, secured: true }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: teacherRequestKeys.all(userId) }),
        // Approval makes the applicant a teacher: the users table changes, and so do the admin's
        // own role flags when they approved their own application.
        queryClient.invalidateQueries({ queryKey: userKeys.lists(userId) }),
        queryClient.invalidateQueries({ queryKey: roleKeys.all(userId) }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all(userId) }),
      ]),
  });
}

/**
 * PATCH /api/classes/<resource>/:id/approve|reject {version, reason} (admin; only while pending): a
 * new class (`class-requests`) or an edit of an accepted one (`revisions`), as of the `version`
 * the admin reviewed (decision 027). Either changes the class wherever it is shown (an approved
 * revision reaches the catalogue) and adds to the audit log; a 409 (the teacher changed it, or
 * someone decided first) reloads the lists so the admin sees what is pending now.
 */
function useDecideOnClass(resource: 'class-requests' | 'revisions') {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: ({
      id,
      decision,
      version,
      reason,
    }: {
      id: string;
      decision: Decision;
      version: string;
      reason?: string;
    }) =>
      apiClient.patch(
        `/classes/${resource}/{id}/${decision}`,
        decision === 'reject' && reason ? { version, reason } : { version },
        { path: { id }, secured: true },
      ),
    onSuccess: () =>
      Promise.all([
        invalidateClasses(queryClient, userId),
        queryClient.invalidateQueries({ queryKey: auditKeys.all(userId) }),
      ]),
    onError: (error) => {
      if (isApiError(error) && error.status === 409) return invalidateClasses(queryClient, userId);
    },
  });
}

/** Accept or reject a pending class. */
export const useDecideClass = () => useDecideOnClass('class-requests');

/** Apply or turn down a pending revision of an accepted class. */
export const useDecideRevision = () => useDecideOnClass('revisions');
