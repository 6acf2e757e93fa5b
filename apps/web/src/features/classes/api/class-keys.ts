import type { QueryClient } from '@tanstack/react-query';
import type { ClassStatus } from '@skillhive/shared/rules/constants';
import { userScopeKey } from '../../../lib/query-client.ts';

/** One page of a list filtered by status (the admin's moderation lists). */
export interface StatusPageParams<S extends string> {
  page: number;
  status: S | '';
  /** A search of the moderation list; empty for none. */
  q?: string;
}

/**
 * The class data layer's one key factory. Public keys (the catalogue, an accepted class's page)
 * sit under ['classes'] and are the same for every visitor. What only one person may see (a
 * teacher's own classes, their figures, revisions and rosters; the admin's moderation lists) sits
 * under that person's root, ['user', userId, 'classes', …], and goes at sign-out.
 */
export const classKeys = {
  all: ['classes'] as const,
  catalogues: () => [...classKeys.all, 'list'] as const,
  catalogue: (params: object) => [...classKeys.catalogues(), params] as const,
  detail: (id: string) => [...classKeys.all, 'detail', id] as const,

  mine: (userId: string) => [...userScopeKey(userId), 'classes'] as const,
  teacherPage: (userId: string, page: number) => [...classKeys.mine(userId), 'teacher', { page }] as const,
  /** A class as its teacher or an admin sees it (any status). */
  managed: (userId: string, id: string) => [...classKeys.mine(userId), 'managed', id] as const,
  stats: (userId: string, id: string) => [...classKeys.mine(userId), 'stats', id] as const,
  revision: (userId: string, id: string) => [...classKeys.mine(userId), 'revision', id] as const,
  roster: (userId: string, id: string, page: number) => [...classKeys.mine(userId), 'roster', id, { page }] as const,
  moderation: (userId: string, params: StatusPageParams<ClassStatus>) =>
    [...classKeys.mine(userId), 'moderation', params] as const,
  revisions: (userId: string, page: number) => [...classKeys.mine(userId), 'revisions', { page }] as const,
};

/**
 * After a class changed (created, edited, moderated, deleted, paid for, reviewed): what the
 * signed-in person sees of it and what every visitor sees (catalogue, class page) are refetched.
 */
export function invalidateClasses(queryClient: QueryClient, userId: string | null): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: classKeys.all }),
    userId ? queryClient.invalidateQueries({ queryKey: classKeys.mine(userId) }) : undefined,
  ]);
}
