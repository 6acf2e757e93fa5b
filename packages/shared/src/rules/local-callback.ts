/**
 * The one rule for callbacks and redirects (the web app's return paths, the identity endpoints'
 * `callbackURL`/`redirectTo`, every query the identity gate forwards): the value, resolved against
 * our public origin, must stay on that origin with exactly the path it spells. URL parsers
 * (ours, better-auth's, the browser's) remove dot segments, raw or percent-encoded, and read a
 * leading `//` or a backslash as another host, so `/.//evil.example` can come out as
 * `//evil.example`; such values are refused, not repaired. Light on purpose: the web loads it on
 * any page.
 */
import { hasControlCharacter } from './control-characters.ts';

/** Longest callback accepted, in characters. */
export const CALLBACK_MAX = 2048;

/**
 * Whether `value` (a path like `/dashboard?x=1`, or an absolute URL spelled with `origin` itself)
 * stays on `origin` with the same path: no dot segment (`.`, `..`, `%2e`), no empty segment (`//`,
 * a trailing `/`), no backslash or encoded slash, no control character, nothing the URL parser
 * would rewrite.
 */
export function isLocalCallback(value: string, origin: string): boolean {
  if (value.length === 0 || value.length > CALLBACK_MAX) return false;
  if (hasControlCharacter(value) || value.includes('\\')) return false;
  const base = new URL(origin);
  const relative = value.startsWith(`${base.origin}/`) ? value.slice(base.origin.length) : value;
  if (!relative.startsWith('/')) return false;
  let resolved: URL;
  try {
    resolved = new URL(relative, base.origin);
  } catch {
    return false;
  }
  if (resolved.origin !== base.origin) return false;
  const path = relative.split(/[?#]/, 1)[0]!;
  // The parser leaves the path as spelled: nothing was removed, resolved or re-encoded.
  if (resolved.pathname !== path) return false;
  if (path === '/') return true;
  return path
    .slice(1)
    .split('/')
    .every((segment) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return false;
      }
      return (
        decoded.length > 0 &&
        decoded !== '.' &&
        decoded !== '..' &&
        !/[/\\]/.test(decoded) &&
        !hasControlCharacter(decoded)
      );
    });
}

/** Any origin does to check a path alone: `isLocalCallback` compares the origin with itself. */
const PATH_CHECK_ORIGIN = 'https://skillhive.invalid';

/** Whether `value` is a path on this site (starting with one `/`) under the same rule. */
export function isLocalPath(value: string): boolean {
  return value.startsWith('/') && isLocalCallback(value, PATH_CHECK_ORIGIN);
}
