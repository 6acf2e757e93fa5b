import { isLocalPath } from '@skillhive/shared/rules/local-callback';
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
  const authPages: string[] = [paths.login, paths.signup, paths.forgotPassword, paths.resetPassword];
  if (authPages.includes(pathname)) return paths.home;
  const search = typeof from?.search === 'string' ? from.search : '';
  const hash = typeof from?.hash === 'string' ? from.hash : '';
  const path = `${pathname}${search}${hash}`;
  // The one rule for callbacks and redirects (shared with the server's identity gate).
  return isLocalPath(path) ? path : paths.home;
}

/**
 * Why a visitor was sent to another page, said in one line where they land. The
 * layout shows `state.reason` of the current location (components/layout/redirect-notice.tsx).
 */
export const REDIRECT_REASONS = {
  signInForDashboard: 'Sign in to see your dashboard.',
  signInToEnroll: 'Sign in to enroll.',
  signInToApply: 'Sign in to apply to teach.',
  signInToMessage: 'Sign in to message the teacher.',
  sessionExpired: 'Your session expired. Please sign in again.',
  teachersOnly: 'That page is for teachers. Apply to teach to open it.',
  adminsOnly: 'That page is for admins.',
} as const;

/** A same-app path (never another origin, never an auth page), or null. */
function safeInAppPath(value: unknown): string | null {
  if (typeof value !== 'string' || !isLocalPath(value)) return null;
  const pathname = value.split(/[?#]/)[0] ?? '';
  const authPages: string[] = [paths.login, paths.signup, paths.forgotPassword, paths.resetPassword];
  return authPages.includes(pathname) ? null : value;
}

/**
 * Where to continue after following the verification link. The server sends every
 * verification link to /email-verified (identity gate), so the page a visitor signed up from is
 * kept in this browser until they come back verified.
 */
const RETURN_AFTER_VERIFY_KEY = 'skillhive-return-after-verify';

export function rememberReturnAfterVerify(path: string): void {
  const safe = safeInAppPath(path);
  try {
    if (safe && safe !== paths.home) window.localStorage.setItem(RETURN_AFTER_VERIFY_KEY, safe);
    else window.localStorage.removeItem(RETURN_AFTER_VERIFY_KEY);
  } catch {
    // Storage blocked: the verified page offers the dashboard instead.
  }
}

/** The remembered page, if any (kept until a verification succeeds and it is used). */
export function returnAfterVerify(): string | null {
  try {
    return safeInAppPath(window.localStorage.getItem(RETURN_AFTER_VERIFY_KEY));
  } catch {
    return null;
  }
}

export function forgetReturnAfterVerify(): void {
  try {
    window.localStorage.removeItem(RETURN_AFTER_VERIFY_KEY);
  } catch {
    // Nothing kept.
  }
}
