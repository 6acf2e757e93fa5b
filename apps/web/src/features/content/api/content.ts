import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClassMaterial } from '@skillhive/shared/contracts/content';
import type {
  LinkMaterialFormBody,
  PublishDraftsBody,
  SaveSessionBody,
  WeeklySessionsBody,
} from '@skillhive/shared/rules/content-forms';
import { MATERIAL_FILE_FIELD } from '@skillhive/shared/rules/content';
import { ApiError, apiClient, buildApiUrl, tokenStorage, type ApiPath } from '../../../lib/api-client.ts';
import { userScopeKey, type UserScope } from '../../../lib/query-client.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

/** A class's content is per person (a student sees their own marks): keyed under their root. */
export const contentKeys = {
  all: (userId: string) => [...userScopeKey(userId), 'content'] as const,
  ofClass: (userId: string, classId: string) => [...contentKeys.all(userId), classId] as const,
  progress: (userId: string, classId: string) => [...contentKeys.all(userId), classId, 'progress'] as const,
};

/** GET /api/classes/:id/content (paid students, the teacher, admins). */
export const classContentQueryOptions = (user: UserScope | null, classId: string) =>
  queryOptions({
    queryKey: contentKeys.ofClass(user?.id ?? '', classId),
    queryFn: ({ signal }) => apiClient.get('/classes/{id}/content', { path: { id: classId }, secured: true, signal }),
    enabled: user !== null,
    // The meeting link opens at a time: look again every minute while the page is open.
    refetchInterval: 60_000,
  });

/** GET /api/classes/:id/progress (the teacher, admins). */
export const classProgressQueryOptions = (user: UserScope | null, classId: string) =>
  queryOptions({
    queryKey: contentKeys.progress(user?.id ?? '', classId),
    queryFn: ({ signal }) => apiClient.get('/classes/{id}/progress', { path: { id: classId }, secured: true, signal }),
    enabled: user !== null,
  });

/** Every change to a class's content refetches what this person sees of it (and its progress). */
function useContentMutation<Input, Output>(classId: string, run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contentKeys.ofClass(userId, classId) }),
  });
}

/** The add form: one session, or the same local time weekly, `weeks` drafts in one request. */
export function useCreateWeeklySessions(classId: string) {
  return useContentMutation(classId, (body: WeeklySessionsBody) =>
    apiClient.post('/classes/{id}/sessions/weekly', body, { path: { id: classId }, secured: true }),
  );
}

/** "Publish all": the class's drafts (or one section's); the public schedule is read again. */
export function usePublishDrafts(classId: string) {
  const queryClient = useQueryClient();
  const userId = useUserScope()?.id ?? '';
  return useMutation({
    mutationFn: (body: PublishDraftsBody) =>
      apiClient.post('/classes/{id}/content/publish', body, { path: { id: classId }, secured: true }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: contentKeys.ofClass(userId, classId) }),
        queryClient.invalidateQueries({ queryKey: ['class-schedule', classId] }),
      ]),
  });
}

export function useUpdateSession(classId: string) {
  return useContentMutation(classId, ({ id, body }: { id: string; body: SaveSessionBody }) =>
    apiClient.patch('/class-sessions/{id}', body, { path: { id }, secured: true }),
  );
}

export type ContentKind = 'session' | 'material';

const itemPath = (kind: ContentKind) => (kind === 'session' ? '/class-sessions/{id}' : '/materials/{id}');

export function usePublishItem(classId: string) {
  return useContentMutation(classId, ({ kind, id, published }: { kind: ContentKind; id: string; published: boolean }) =>
    apiClient.post(`${itemPath(kind)}/publish`, { published }, { path: { id }, secured: true }),
  );
}

export function useDeleteItem(classId: string) {
  return useContentMutation(classId, ({ kind, id }: { kind: ContentKind; id: string }) =>
    apiClient.delete(itemPath(kind), { path: { id }, secured: true }),
  );
}

export function useReorder(classId: string) {
  return useContentMutation(classId, ({ kind, ids }: { kind: ContentKind; ids: string[] }) =>
    apiClient.put(
      `/classes/{id}/${kind === 'session' ? 'sessions' : 'materials'}/order`,
      { ids },
      { path: { id: classId }, secured: true },
    ),
  );
}

export function useCreateLinkMaterial(classId: string) {
  return useContentMutation(classId, (body: LinkMaterialFormBody) =>
    apiClient.post('/classes/{id}/materials', body, { path: { id: classId }, secured: true }),
  );
}

/** POST /api/classes/:id/materials/file: the title, then the file (multipart). */
async function uploadMaterial(classId: string, input: { title: string; file: File }): Promise<ClassMaterial> {
  const form = new FormData();
  form.append('title', input.title);
  form.append(MATERIAL_FILE_FIELD, input.file);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = tokenStorage.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(buildApiUrl('/classes/{id}/materials/file' satisfies ApiPath<'post'>, {}, { id: classId }), {
      method: 'POST',
      body: form,
      headers,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError({
      status: 0,
      code: 'network_error',
      message: 'We could not reach SkillHive. Check your connection and try again.',
    });
  }
  const body = (await response.json().catch(() => null)) as
    (ClassMaterial & { error?: undefined }) | { error?: { code: string; message: string } } | null;
  if (!response.ok) {
    throw new ApiError({
      status: response.status,
      code: body?.error?.code ?? `http_${response.status}`,
      message: body?.error?.message ?? 'The upload failed. Please try again.',
    });
  }
  return body as ClassMaterial;
}

export function useUploadMaterial(classId: string) {
  return useContentMutation(classId, (input: { title: string; file: File }) => uploadMaterial(classId, input));
}

/** A student's own marks. */
export function useMarkProgress(classId: string) {
  return useContentMutation(classId, ({ kind, id, done }: { kind: ContentKind; id: string; done: boolean }) =>
    apiClient.put(
      kind === 'session' ? '/class-sessions/{id}/attendance' : '/materials/{id}/completion',
      { done },
      { path: { id }, secured: true },
    ),
  );
}
