import { z } from 'zod';
import { ChangeEmailBody, ChangePasswordBody, UpdateUserBody } from '@skillhive/shared/rules/account-forms';
import { isLocalCallback } from '@skillhive/shared/rules/local-callback';
import { LoginBody } from '@skillhive/shared/rules/login-form';
import {
  RequestPasswordResetBody,
  ResetPasswordBody,
  SendVerificationBody,
  SignUpBody,
} from '@skillhive/shared/rules/auth-forms';

/** Where the links in verification and reset mails land in the web app. */
export const EMAIL_VERIFIED_PATH = '/email-verified';
export const RESET_PASSWORD_PATH = '/reset-password';
export const PROFILE_PATH = '/dashboard/profile';

/**
 * The identity gate (decision 009): which better-auth endpoints the app forwards, and what each one
 * must pass first. Requests are judged on the path better-auth will run, never on Fastify's raw
 * path: `/api/auth/x/../sign-in/email` IS sign-in, and gets sign-in's checks.
 */
export const AUTH_BASE_PATH = '/api/auth';

export type IdentityMethod = 'GET' | 'POST';

/** What the gate checks before a request of one endpoint reaches better-auth. */
export interface IdentityEndpoint {
  /** better-auth's route below /api/auth, as better-auth names it; `:name` is one id-like segment. */
  readonly path: string;
  readonly methods: readonly IdentityMethod[];
  /** The shared schema the JSON body must pass (spec §5); its parsed values are what is forwarded. */
  readonly body?: z.core.$ZodType;
  /** Forward only the schema's fields (true), or the caller's other fields too (better-auth checks those). */
  readonly schemaFieldsOnly?: boolean;
  /** Fields set whatever the caller sent. */
  readonly force?: Readonly<Record<string, unknown>>;
  /** Fields set when the caller sent none. */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /**
   * Sends a mail to the address in this body field: counts against the one per-address mail limit,
   * shared by every endpoint that mails an address (decision 028).
   */
  readonly mailTo?: 'email' | 'newEmail';
  /** Counts against the per-address cap on sign-ins and sign-ups (decision 009). */
  readonly perAddress?: boolean;
  /**
   * A password is checked here: attempts count per (account e-mail, address) before better-auth
   * checks it, a success clears the count, and any answer but a wrong password gives the point back.
   */
  readonly lockout?: PasswordLockout;
  /**
   * The body's `password` (not forwarded) confirms the signed-in person first, under the same
   * lockout (decision 028); an account without one must have signed in within 15 minutes.
   */
  readonly confirmsPerson?: boolean;
  /** A success revokes every link mailed about the signed-in account (decision 028). */
  readonly revokesLinks?: boolean;
}

export interface PasswordLockout {
  /** Whose password: the e-mail in the body, or the signed-in user's (their session cookie). */
  readonly account: 'body-email' | 'session';
  /** better-auth's answer to a wrong password. */
  readonly wrongPassword: { status: number; code?: string };
}

/**
 * The allow-list: the endpoints the web app, the e-2-e suite and the social/OIDC flows use.
 * Anything else under /api/auth is 404. A later endpoint (password reset) is one more row here,
 * with its schema and limits.
 */
export const IDENTITY_ENDPOINTS: readonly IdentityEndpoint[] = [
  // Sign-up sends the verification mail; its link lands on the web app's confirmation page.
  {
    path: 'sign-up/email',
    methods: ['POST'],
    body: SignUpBody,
    schemaFieldsOnly: true,
    perAddress: true,
    mailTo: 'email',
    force: { callbackURL: EMAIL_VERIFIED_PATH },
  },
  // E-mail verification and password reset (decision 014). Callback paths are
  // paths on this site (LocalCallbackPath); each mail counts against its address's limit.
  {
    path: 'send-verification-email',
    methods: ['POST'],
    body: SendVerificationBody,
    schemaFieldsOnly: true,
    defaults: { callbackURL: EMAIL_VERIFIED_PATH },
    perAddress: true,
    mailTo: 'email',
  },
  { path: 'verify-email', methods: ['GET'] },
  {
    path: 'request-password-reset',
    methods: ['POST'],
    body: RequestPasswordResetBody,
    schemaFieldsOnly: true,
    defaults: { redirectTo: RESET_PASSWORD_PATH },
    perAddress: true,
    mailTo: 'email',
  },
  { path: 'reset-password/:token', methods: ['GET'] },
  { path: 'reset-password', methods: ['POST'], body: ResetPasswordBody, schemaFieldsOnly: true, perAddress: true },
  {
    path: 'change-email',
    methods: ['POST'],
    body: ChangeEmailBody,
    schemaFieldsOnly: true,
    defaults: { callbackURL: PROFILE_PATH },
    mailTo: 'newEmail',
    confirmsPerson: true,
  },
  {
    path: 'sign-in/email',
    methods: ['POST'],
    body: LoginBody,
    perAddress: true,
    lockout: { account: 'body-email', wrongPassword: { status: 401 } },
  },
  { path: 'sign-in/social', methods: ['POST'], perAddress: true },
  { path: 'sign-in/oauth2', methods: ['POST'], perAddress: true },
  { path: 'callback/:provider', methods: ['GET', 'POST'] },
  { path: 'oauth2/callback/:provider', methods: ['GET'] },
  // better-auth sends the browser here when a provider's answer is refused (e.g. a forged state).
  { path: 'error', methods: ['GET'] },
  { path: 'sign-out', methods: ['POST'] },
  { path: 'get-session', methods: ['GET'] },
  // Profile fields follow the sign-up rules; better-auth itself refuses roles (input: false) and e-mail.
  { path: 'update-user', methods: ['POST'], body: UpdateUserBody },
  // A password change ends every older session and the API tokens issued against them. A wrong
  // current password counts toward the same lockout as sign-in: a stolen cookie is no oracle.
  {
    path: 'change-password',
    methods: ['POST'],
    body: ChangePasswordBody,
    force: { revokeOtherSessions: true },
    lockout: { account: 'session', wrongPassword: { status: 400, code: 'INVALID_PASSWORD' } },
    revokesLinks: true,
  },
  // Devices are listed and ended one by one through /api/users/me/sessions, which never shows a
  // session token to the page; these two end them in bulk, and the links mailed before.
  { path: 'revoke-sessions', methods: ['POST'], revokesLinks: true },
  { path: 'revoke-other-sessions', methods: ['POST'], revokesLinks: true },
];

const PARAM_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

function matchesPath(pattern: string, path: string): boolean {
  const expected = pattern.split('/');
  const actual = path.split('/');
  return (
    expected.length === actual.length &&
    expected.every((segment, i) =>
      segment.startsWith(':') ? PARAM_SEGMENT.test(actual[i] ?? '') : segment === actual[i],
    )
  );
}

/** The endpoint of a better-auth route template (`/callback/:id`), for better-auth's own hooks. */
export function findEndpointByTemplate(template: string): IdentityEndpoint | undefined {
  const path = template.replace(/^\//, '').replace(/:[^/]+/g, ':');
  return IDENTITY_ENDPOINTS.find((endpoint) => endpoint.path.replace(/:[^/]+/g, ':') === path);
}

export interface IdentityRoute {
  endpoint: IdentityEndpoint;
  /** The URL to hand to better-auth: our public origin, the normalised path, the query. */
  url: URL;
}

/**
 * The endpoint a raw request target names, or null when it names none we forward. The target is
 * normalised as the WHATWG URL parser does (dot segments, `%2e`), which is what better-auth's
 * Request sees; anything not spelled exactly as an allowed route after that (double or trailing
 * slashes, other letter case, encoded slashes) is not forwarded at all.
 */
export function resolveIdentityRoute(rawTarget: string, method: string, publicUrl: string): IdentityRoute | null {
  let parsed: URL;
  try {
    parsed = new URL(rawTarget, publicUrl);
  } catch {
    return null;
  }
  const prefix = `${AUTH_BASE_PATH}/`;
  if (!parsed.pathname.startsWith(prefix)) return null;
  const path = parsed.pathname.slice(prefix.length);
  const endpoint = IDENTITY_ENDPOINTS.find(
    (candidate) => candidate.methods.includes(method as IdentityMethod) && matchesPath(candidate.path, path),
  );
  if (!endpoint) return null;
  const url = new URL(`${prefix}${path}`, new URL(publicUrl).origin);
  url.search = parsed.search;
  return { endpoint, url };
}

/**
 * The fields of better-auth's endpoints that name where the browser goes next (a redirect, or a
 * link in a mail). Wherever one appears — a forwarded query, any body — it must pass the one rule
 * for callbacks against PUBLIC_URL (`isLocalCallback`): better-auth would otherwise resolve
 * `/.//evil.example` into `//evil.example` and redirect there, even for a token it refuses.
 */
export const CALLBACK_FIELDS = ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL', 'redirectTo'] as const;

/**
 * The first callback field of the query or the body that would leave our origin or path, or
 * null when there is none. A field given twice in the query, or as anything but a string in the
 * body, is refused too.
 */
export function findForeignCallback(url: URL, body: unknown, publicUrl: string): string | null {
  for (const field of CALLBACK_FIELDS) {
    const values = url.searchParams.getAll(field);
    if (values.length > 1 || values.some((value) => !isLocalCallback(value, publicUrl))) return field;
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    for (const field of CALLBACK_FIELDS) {
      if (!Object.hasOwn(record, field) || record[field] === undefined) continue;
      const value = record[field];
      if (typeof value !== 'string' || !isLocalCallback(value, publicUrl)) return field;
    }
  }
  return null;
}

/** How deep a JSON body may nest: identity bodies are flat, and deep ones overflow the stack. */
export const MAX_BODY_DEPTH = 8;

/** Whether a parsed JSON value nests deeper than `max` (iterative: no recursion to overflow). */
export function isNestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

export type IdentityBodyCheck =
  { ok: true; body: Record<string, unknown> | undefined } | { ok: false; error: z.core.$ZodError | 'not-an-object' };

/** The body an endpoint's schema allows, as it will be forwarded; unchanged without a schema. */
export function checkIdentityBody(endpoint: IdentityEndpoint, body: unknown): IdentityBodyCheck {
  if (!endpoint.body) {
    return { ok: true, body: body as Record<string, unknown> | undefined };
  }
  const raw = body ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: 'not-an-object' };
  const parsed = z.safeParse(endpoint.body, raw);
  if (!parsed.success) return { ok: false, error: parsed.error };
  const data = parsed.data as Record<string, unknown>;
  return {
    ok: true,
    body: { ...endpoint.defaults, ...(endpoint.schemaFieldsOnly ? {} : raw), ...data, ...endpoint.force },
  };
}
