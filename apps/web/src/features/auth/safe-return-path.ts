import { paths } from '../../config/paths.ts';

interface FromState {
  from?: { pathname?: unknown; search?: unknown; hash?: unknown };
}

/**
 * The in-app location a visitor came from (location state `from`, spec §2 "/login returns the
 * user to the page they came from, else /"). Only same-app paths, never the auth pages.
 */
export function returnPathFrom(state: unknown): string {
  const from = (state as FromState | null)?.from;
  const pathname = typeof from?.pathname === 'string' ? from.pathname : '';
  if (!pathname.startsWith('/') || pathname.startsWith('//')) return paths.home;
  const authPages: string[] = [paths.login, paths.signup, paths.forgotPassword, paths.resetPassword];
  if (authPages.includes(pathname)) return paths.home;
  const search = typeof from?.search === 'string' ? from.search : '';
  const hash = typeof from?.hash === 'string' ? from.hash : '';
  return `${pathname}${search}${hash}`;
}
