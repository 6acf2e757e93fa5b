import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ErrorCode, forbidden, unauthenticated } from './app-error.ts';

/** The signed-in caller, with roles read fresh from the database on every request. */
export interface Viewer {
  id: string;
  email: string;
  name: string;
  image: string | null;
  phone: string | null;
  isAdmin: boolean;
  isTeacher: boolean;
  /** Whether the user followed the link sent to their e-mail address (better-auth's flag). */
  emailVerified: boolean;
  /** The better-auth session the call came with: the cookie's, or the one a Bearer token names. */
  sessionId: string;
  sessionCreatedAt: Date;
}

/**
 * Who may call a route, declared in its config (decision 025). The access hook below enforces the
 * viewer roles before the handler runs; the swagger plugin writes the same declaration into the
 * document (plugins/openapi-access.ts), so the two cannot disagree.
 */
export type Access =
  /** Anyone, no credentials read. */
  | 'public'
  /** Anyone; a session or token, when sent, may show more (an admin may ask for every status). */
  | 'public-viewer-aware'
  /** Anyone, but the better-auth session cookie is read when sent. */
  | 'public-session-aware'
  /** Any signed-in user (session cookie or Bearer token). */
  | 'signed-in'
  /** A signed-in user whose e-mail address is verified: teaching and paying need one (decision 014). */
  | 'verified'
  | 'teacher'
  | 'admin'
  /** The user named by the e-mail in the path (`:email`, or `:user`), or an admin (spec §7). */
  | 'self-or-admin'
  /** The better-auth session cookie only, a Bearer token is not accepted: checked by the handler. */
  | 'session-cookie-only'
  /** Stripe, proven by the Stripe-Signature header over the raw body: checked by the handler. */
  | 'signature'
  /** An operator with METRICS_TOKEN as Bearer token (docs/OPERATIONS.md): checked by the handler. */
  | 'metrics-token';

/**
 * The ownership rules services check after the role (decision 025): each names who passes, in the
 * words the API document uses, and whether anyone else is answered 403 (else 404, or their own only).
 */
export const OWNERSHIP_RULES = {
  'own-email-token': {
    who: 'a signed-in user, by session cookie only, for their own e-mail (403 for another)',
    forbidden: true,
  },
  'not-own-class': { who: 'any signed-in user, not for their own class' },
  'enrollment-student': { who: 'the student of the enrollment only', forbidden: true },
  'enrollment-student-or-404': { who: 'the student of the enrollment (404 for another’s)' },
  payer: { who: 'the student who paid' },
  'own-payments': { who: 'any signed-in user, their own payments only' },
  'own-payment': { who: 'any signed-in user, their own payments only (404 for another’s)' },
  'intent-owner': { who: "the intent's owner", forbidden: true },
  'own-refund-requests': { who: 'any signed-in user, their own requests only' },
  'own-reviews': { who: 'any signed-in user, their own reviews only' },
  'coupon-teacher-or-admin': { who: 'the coupon’s teacher, or an admin (404 for anyone else)' },
  'paid-student': { who: 'a student with a paid enrollment in the class', forbidden: true },
  'not-a-teacher': {
    who: 'any signed-in user who is not a teacher, with a verified e-mail address (403 email_not_verified otherwise)',
  },
  'own-teacher-email': { who: 'that teacher (their own e-mail), or an admin' },
  'accepted-or-teacher-or-admin': { who: 'anyone for an accepted class; its teacher and admins for any status' },
  'accepted-class': { who: 'anyone, for an accepted class' },
  'class-teacher': { who: 'the teacher of the class only' },
  'review-class-teacher': { who: "the teacher of the review's class only (404 for anyone else's)" },
  'class-teacher-or-admin': { who: 'the teacher of the class, or an admin', forbidden: true },
  'paid-student-own-mark': {
    who: 'a student whose enrollment in the class is paid, for their own mark (409 for anyone else)',
  },
  'content-reader': {
    who: 'a student whose enrollment in the class is paid (published items), its teacher, or an admin (409 for anyone else)',
  },
  'class-member': {
    who: 'a student whose enrollment in the class is paid, its teacher, or an admin (409 for anyone else)',
  },
  'material-reader': {
    who: 'a student whose enrollment in the class is paid (published materials), its teacher, or an admin (409 for anyone else)',
  },
  own: { who: 'any signed-in user, their own' },
  'own-notification': { who: 'any signed-in user, their own notifications only (404 for another’s)' },
  'own-session': { who: 'any signed-in user, their own sessions only (404 for another)' },
  'own-account-confirmed': {
    who: 'any signed-in user, their own account, confirmed by password or a sign-in in the last 15 minutes',
  },
  'not-self-not-last-admin': { who: 'admins only; not themself, not the last admin' },
  'own-classes': { who: 'teachers only, for their own classes' },
  'own-earnings': { who: 'teachers only, their own earnings and payouts (students shown by initials only)' },
  'test-gateway-only': { who: 'admins only, where the built-in test gateway takes payments (else 404)' },
  'test-gateway-account': { who: 'anyone holding the link, where the built-in test gateway takes payments (else 404)' },
  'own-class-roster': {
    who: "the class's own teacher only (404 for another teacher's class, whoever asks; 403 for non-teachers)",
  },
  'not-me-token': { who: 'anyone holding the token of a "this was not me" mail' },
  'not-own-target': { who: 'any signed-in user, not about themself or their own content (409)' },
  'thread-party': { who: 'the two people of the thread only (404 for anyone else)' },
  'thread-party-or-admin': { who: 'the two people of the thread, or an admin (404 for anyone else)' },
  'mailbox-enabled': { who: 'admins only, where mail waits in the outbox (no SMTP_URL, not production; else 404)' },
} as const satisfies Record<string, { who: string; forbidden?: true }>;

export type OwnershipRule = keyof typeof OWNERSHIP_RULES;

/** A route as registered, with its config: the route walk test and the API document read these. */
export interface DeclaredRoute {
  method: string;
  url: string;
  config: FastifyContextConfig;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app as registered (decision 025). */
    declaredRoutes: DeclaredRoute[];
  }
  interface FastifyRequest {
    /** Resolves the session cookie or Bearer token once per request; null when anonymous. */
    getViewer(): Promise<Viewer | null>;
  }
  interface FastifyContextConfig {
    /** Who may call (decision 025); a route without it answers 500 and fails the route walk test. */
    access?: Access;
    /** The ownership rule the service checks after the role (decision 025). */
    owner?: OwnershipRule;
    /** Error statuses beyond the ones implied by the access and the operation's inputs (API document). */
    errors?: readonly number[];
    /** A list answering its total count in X-Total-Count (DESIGN §3). */
    list?: true;
    /** A list whose total may be a floor, said by X-Total-Count-Capped (a search's "1,000+", decision 018). */
    cappedTotal?: true;
  }
}

/** The message of a 403 email_not_verified; the web app offers to send the link again beside it. */
export const EMAIL_NOT_VERIFIED_MESSAGE =
  'Verify your e-mail address first: follow the link we sent you, or ask for a new one from your profile.';

const viewers = new WeakMap<FastifyRequest, Viewer>();

/** The accesses the hook checks against the viewer; the others are checked by their handlers, or by no one. */
const VIEWER_ACCESS: ReadonlySet<Access> = new Set(['signed-in', 'verified', 'teacher', 'admin', 'self-or-admin']);

/**
 * Enforces the route's declared access before its handler runs (decision 025). A public route is
 * let through synchronously: no promise and no microtask turn on the catalogue's path (decision 036).
 */
function enforceAccess(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  // The not-found path is no route: the SPA fallback and the JSON 404 answer it.
  if (request.is404) return done();
  const access = request.routeOptions.config.access;
  if (!access) return done(new AppError(ErrorCode.INTERNAL, 'This route declares no access'));
  if (!VIEWER_ACCESS.has(access)) return done();
  checkViewer(request, access).then(() => done(), done);
}

async function checkViewer(request: FastifyRequest, access: Access): Promise<void> {
  const viewer = await request.getViewer();
  if (!viewer) throw unauthenticated();
  if (access === 'verified' && !viewer.emailVerified) {
    throw new AppError(ErrorCode.EMAIL_NOT_VERIFIED, EMAIL_NOT_VERIFIED_MESSAGE);
  }
  if (access === 'teacher' && !viewer.isTeacher) throw forbidden('Only teachers can do this');
  if (access === 'admin' && !viewer.isAdmin) throw forbidden('Only admins can do this');
  if (access === 'self-or-admin') {
    const params = request.params as { email?: string; user?: string };
    const email = params.email ?? params.user ?? '';
    if (viewer.email !== email.toLowerCase() && !viewer.isAdmin) throw forbidden();
  }
  viewers.set(request, viewer);
}

/**
 * The access hook on every route of the app, after validation as the handlers' own checks ran;
 * called on the root instance before any route is registered, so every route is recorded.
 */
export function registerAccess(app: FastifyInstance): void {
  const routes: DeclaredRoute[] = [];
  app.decorate('declaredRoutes', routes);
  app.addHook('onRoute', (route) => {
    const config = (route.config ??= {});
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, config });
  });
  app.addHook('preHandler', enforceAccess);
}

/** The caller the access hook let through; only on routes whose access needs a signed-in user. */
export function viewerOf(request: FastifyRequest): Viewer {
  const viewer = viewers.get(request);
  if (!viewer) throw new AppError(ErrorCode.INTERNAL, 'This route declares no signed-in access');
  return viewer;
}

/** Declares one access for every route a third-party plugin registers in this context. */
export function declareAccess(app: FastifyInstance, access: Access): void {
  app.addHook('onRoute', (route) => {
    (route.config ??= {}).access ??= access;
  });
}
