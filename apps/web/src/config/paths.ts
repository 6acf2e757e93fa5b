import type { Role } from '@skillhive/shared/rules/roles';
import { DASHBOARD_PAGES, fillPath, SITE_PAGES } from '../app/routes.manifest.ts';

/** A page's path: the path itself, or a function of the id for a pattern with `:id`. */
type PathOf<P extends string> = P extends `${string}:id${string}` ? (id: string) => string : P;
type PathsOf<Group extends Record<string, { path: string }>> = {
  readonly [Name in keyof Group]: PathOf<Group[Name]['path']>;
};

function pathsOf<Group extends Record<string, { path: string }>>(group: Group): PathsOf<Group> {
  return Object.fromEntries(
    Object.entries(group).map(([name, { path }]) => [
      name,
      path.includes(':') ? (id: string) => fillPath(path, { id }) : path,
    ]),
  ) as PathsOf<Group>;
}

/**
 * Every path of the web app (STYLE.md: routes are thin, paths come from here), built from the
 * route manifest (src/app/routes.manifest.ts): `paths.<page>` for the public pages,
 * `paths.dashboard.<page>` for the dashboard's, a function of the id where the path has `:id`.
 */
export const paths = { ...pathsOf(SITE_PAGES), dashboard: pathsOf(DASHBOARD_PAGES) };

/** Dashboard target of spec §2: admin → adminHome, teacher → teacherHome, else studentHome. */
export function dashboardHomePath(role: Role): string {
  if (role === 'admin') return paths.dashboard.adminHome;
  if (role === 'teacher') return paths.dashboard.teacherHome;
  return paths.dashboard.studentHome;
}
