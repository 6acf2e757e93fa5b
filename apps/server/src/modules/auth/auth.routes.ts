import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromNodeHeaders } from 'better-auth/node';
import { z } from 'zod';
import { JwtBody, JwtResponse } from '@skillhive/shared/contracts/auth';
import { ACCOUNT_MESSAGES, EMAIL_TAKEN_ERROR, TEXT_MESSAGES } from '@skillhive/shared/rules/messages';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode, conflict, forbidden, unauthenticated } from '../../lib/app-error.ts';
import type { Limiter } from '../../lib/rate-limit.ts';
import { emailChangedMail, emailChangeRequestedMail, queueMail } from '../mail/mail.service.ts';
import { contactEmailOf } from '../users/contact.public.ts';
import { CHANGE_EMAIL_MESSAGES, confirmPerson } from '../users/users.service.ts';
import {
  addAuthErrorFields,
  isUniqueViolation,
  parseJson,
  RETRY_AFTER_SECONDS,
  statusFor422,
  toAuthErrorBody,
  validationError,
} from './auth-errors.ts';
import { CLIENT_IP_HEADER, type Auth } from './auth.ts';
import { findEmailLink, issueNotMeToken, revokeEmailLinks } from './email-links.public.ts';
import {
  AUTH_BASE_PATH,
  checkIdentityBody,
  findForeignCallback,
  isNestedDeeperThan,
  MAX_BODY_DEPTH,
  resolveIdentityRoute,
  type IdentityEndpoint,
  type PasswordLockout,
} from './identity-gate.ts';
import type { TokenService } from './token.ts';

/** Where a "this was not me" link lands in the web app (decision 028). */
export const NOT_ME_PATH = '/not-me';

export interface AuthRoutesOptions {
  db: Db;
  now: () => Date;
  auth: Auth;
  tokens: TokenService;
  publicUrl: string;
  limits: { authPerIp: Limiter; loginFailures: Limiter; tokens: Limiter; mailRequests: Limiter };
  providers: { google: boolean; oidc: { name: string } | null };
  /** stripeJsUrl: where the payment page loads Stripe.js from (STRIPE_JS_URL); null on the test gateway. */
  payments: { gateway: 'test' | 'stripe'; publishableKey: string | null; stripeJsUrl: string | null };
  /** Whether admins can read the outbox at /api/admin/mailbox (no SMTP_URL, not production). */
  mailbox: boolean;
}

export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const { auth, limits } = opts;

  addAuthErrorFields(app);

  /** Hands a request to better-auth as a Web Request at the gate's URL, and copies its answer back. */
  async function forward(
    request: FastifyRequest,
    reply: FastifyReply,
    url: URL,
    body: unknown,
    /**
     * Runs once better-auth has answered with a success (below 400), before the answer is sent:
     * what it writes is in place when the client sees the answer.
     */
    onSuccess?: () => Promise<void>,
  ): Promise<{ sent: FastifyReply; authCode: string | null }> {
    const headers = fromNodeHeaders(request.headers);
    headers.delete('content-length');
    // better-auth reads the client address from this header only: Fastify's request.ip, which
    // honours X-Forwarded-For only when TRUST_PROXY says so, so a client cannot choose the address
    // its rate limits are counted against.
    headers.set(CLIENT_IP_HEADER, request.ip);
    const hasBody = body !== undefined && request.method !== 'GET' && request.method !== 'HEAD';
    if (hasBody) headers.set('content-type', 'application/json');
    const response = await auth.handler(
      new Request(url, {
        method: request.method,
        headers,
        body: hasBody ? JSON.stringify(body) : undefined,
      }),
    );
    if (onSuccess && response.status < 400) await onSuccess();
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    const text = await response.text();
    if (response.status >= 400) {
      const upstream = parseJson(text) as { code?: unknown; message?: unknown } | null;
      const status = response.status === 422 ? statusFor422(upstream?.code) : response.status;
      if (status >= 500) request.log.error({ status, body: text.slice(0, 500) }, 'better-auth failed');
      if (status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      const sent = reply
        .status(status)
        .type('application/json; charset=utf-8')
        .send(toAuthErrorBody(status, request.id, upstream));
      return { sent, authCode: typeof upstream?.code === 'string' ? upstream.code : null };
    }
    reply.status(response.status);
    for (const [name, value] of response.headers) {
      if (name === 'set-cookie' || name === 'content-length' || name === 'content-encoding') continue;
      reply.header(name, value);
    }
    return { sent: reply.send(text.length > 0 ? text : null), authCode: null };
  }

  /**
   * The one gate for every identity request (decision 009). Fastify routes on the raw path, but
   * better-auth runs the path the URL parser makes of it, so the gate resolves that path first,
   * applies that endpoint's checks (per-address cap, schema and password rule, lockout), and
   * forwards the normalised URL. Paths off the allow-list are 404 and never reach better-auth.
   */
  async function gate(request: FastifyRequest, reply: FastifyReply) {
    const route = resolveIdentityRoute(request.url, request.method, opts.publicUrl);
    if (!route) {
      throw new AppError(ErrorCode.NOT_FOUND, `No route for ${request.method} ${request.url.split('?')[0]}`);
    }
    const { endpoint, url } = route;
    if (endpoint.perAddress) await limits.authPerIp.consume(request.ip);
    if (isNestedDeeperThan(request.body, MAX_BODY_DEPTH)) {
      throw new AppError(ErrorCode.VALIDATION, 'The request body is nested too deeply');
    }
    // Every callback, in the query of any forwarded request or in any body, stays on this site.
    const foreign = findForeignCallback(url, request.body, opts.publicUrl);
    if (foreign) {
      throw new AppError(ErrorCode.VALIDATION, TEXT_MESSAGES.callback, {
        fields: { [foreign]: TEXT_MESSAGES.callback },
      });
    }
    const checked = checkIdentityBody(endpoint, request.body);
    if (!checked.ok) {
      if (checked.error === 'not-an-object') {
        throw new AppError(ErrorCode.VALIDATION, 'The request body must be a JSON object');
      }
      throw validationError(checked.error);
    }
    // A change of address counts its mail once the person is confirmed (changeEmail).
    if (endpoint.mailTo && checked.body && !endpoint.confirmsPerson) await countMail(checked.body[endpoint.mailTo]);
    if (endpoint.path === 'verify-email') return followEmailLink(request, reply, url);
    if (endpoint.confirmsPerson) return changeEmail(request, reply, url, checked.body ?? {});
    const linkOwner = endpoint.revokesLinks ? await sessionOf(request) : null;
    const revokeLinks = linkOwner ? () => revokeEmailLinks(opts.db, linkOwner.user.id) : undefined;
    return answer(request, reply, endpoint, url, checked.body, revokeLinks);
  }

  /** Forwards a checked request, under the password lockout when the endpoint has one. */
  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    endpoint: IdentityEndpoint,
    url: URL,
    body: Record<string, unknown> | undefined,
    onSuccess: (() => Promise<void>) | undefined,
  ) {
    const lockout = endpoint.lockout;
    const account = lockout && body ? await lockoutAccount(request, lockout, body) : null;
    if (!lockout || !account) return (await forward(request, reply, url, body, onSuccess)).sent;

    // Every attempt is counted before the password is checked, so a burst of parallel guesses
    // cannot all slip past the limit; a success clears the count, any answer but a wrong password
    // gives its point back (decision 009).
    // A request that throws (the database down: 503) never judged the password, so it is no
    // guess either (decision 028).
    const failureKey = `${account}|${request.ip}`;
    await limits.loginFailures.consume(failureKey);
    let forwarded: Awaited<ReturnType<typeof forward>>;
    try {
      forwarded = await forward(request, reply, url, body, onSuccess);
    } catch (error) {
      await limits.loginFailures.refund(failureKey).catch(() => {});
      throw error;
    }
    const { sent, authCode } = forwarded;
    const { status, code } = lockout.wrongPassword;
    if (reply.statusCode < 300) await limits.loginFailures.reset(failureKey);
    else if (reply.statusCode !== status || (code !== undefined && authCode !== code)) {
      await limits.loginFailures.refund(failureKey);
    }
    return sent;
  }

  /**
   * One count per address across every endpoint that mails it (decision 028): a limit per endpoint
   * would let a stranger send an address several times the mail.
   */
  async function countMail(address: unknown) {
    if (typeof address === 'string') await limits.mailRequests.consume(address.toLowerCase());
  }

  /** The signed-in session of a request's cookie, or null. */
  async function sessionOf(request: FastifyRequest) {
    if (!request.headers.cookie) return null;
    return auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  }

  function publicLink(path: string, token: string): string {
    const link = new URL(path, opts.publicUrl);
    link.searchParams.set('token', token);
    return link.toString();
  }

  /**
   * A change of address (decision 028): the signed-in person is confirmed first (their password
   * under the lockout, or a recent sign-in), and the account's current address is told, with a
   * "this was not me" link. Without a session better-auth answers 401.
   */
  async function changeEmail(request: FastifyRequest, reply: FastifyReply, url: URL, body: Record<string, unknown>) {
    const { password, ...forwarded } = body;
    const session = await sessionOf(request);
    if (session) {
      await confirmPerson(
        opts.db,
        limits.loginFailures,
        {
          person: { id: session.user.id, email: session.user.email, sessionCreatedAt: session.session.createdAt },
          ip: request.ip,
          password: typeof password === 'string' ? password : undefined,
          now: opts.now(),
        },
        CHANGE_EMAIL_MESSAGES,
      );
    }
    await countMail(forwarded.newEmail);
    const newEmail = forwarded.newEmail;
    const tellOwner = async () => {
      if (!session || typeof newEmail !== 'string') return;
      const token = await issueNotMeToken(opts.db, session.user.id, session.user.email, opts.now());
      await queueMail(
        opts.db,
        session.user.email,
        emailChangeRequestedMail({ newEmail, notMeUrl: publicLink(NOT_ME_PATH, token) }),
      );
    };
    return (await forward(request, reply, url, forwarded, tellOwner)).sent;
  }

  /**
   * A verification or change-of-address link: only one still on record is forwarded (decision
   * 028); a revoked, expired or unknown one gets better-auth's own answer to a bad token. A change
   * that completes tells the address the account had, with a "this was not me" link, and revokes
   * the account's other links.
   */
  async function followEmailLink(request: FastifyRequest, reply: FastifyReply, url: URL) {
    const userId = await findEmailLink(opts.db, url.searchParams.get('token') ?? '', opts.now());
    if (!userId) {
      // better-auth's own answer to a bad token.
      const back = backToCallback(reply, url, 'INVALID_TOKEN');
      if (!back) throw unauthenticated('Invalid token');
      return back;
    }
    const before = await contactEmailOf(opts.db, userId);
    const tellOldAddress = async () => {
      const after = await contactEmailOf(opts.db, userId);
      if (!before || !after || before.email === after.email) return;
      await revokeEmailLinks(opts.db, userId);
      const token = await issueNotMeToken(opts.db, userId, before.email, opts.now());
      await queueMail(
        opts.db,
        before.email,
        emailChangedMail({ newEmail: after.email, notMeUrl: publicLink(NOT_ME_PATH, token) }),
      );
    };
    try {
      return (await forward(request, reply, url, undefined, tellOldAddress)).sent;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // A change-of-address link followed after another account registered that address:
      // better-auth's update of the e-mail hit the unique index, and nothing was changed.
      const back = backToCallback(reply, url, EMAIL_TAKEN_ERROR);
      if (!back) throw conflict(ACCOUNT_MESSAGES.changeEmailTaken);
      return back;
    }
  }

  /**
   * Back to a link's callback page (checked by the gate) with ?error=, which that page puts in
   * words; null when the link named no callback.
   */
  function backToCallback(reply: FastifyReply, url: URL, error: string) {
    const callback = url.searchParams.get('callbackURL');
    if (!callback) return null;
    const target = new URL(callback, opts.publicUrl);
    target.searchParams.set('error', error);
    return reply.redirect(`${target.pathname}${target.search}${target.hash}`, 302);
  }

  /** The e-mail whose password the request tries, lower-cased; null when there is none (not signed in). */
  async function lockoutAccount(
    request: FastifyRequest,
    lockout: PasswordLockout,
    body: Record<string, unknown>,
  ): Promise<string | null> {
    if (lockout.account === 'body-email') return typeof body.email === 'string' ? body.email : null;
    const session = await sessionOf(request);
    return session ? session.user.email.toLowerCase() : null;
  }

  for (const url of [`${AUTH_BASE_PATH}/*`, `${AUTH_BASE_PATH}/`]) {
    // better-auth checks each endpoint's own credentials (documented one by one in plugins/openapi-auth.ts).
    app.route({ method: ['GET', 'POST'], url, schema: { hide: true }, config: { access: 'public' }, handler: gate });
  }

  const typed = app.withTypeProvider<ZodTypeProvider>();

  // spec §4/§7: a token only for a caller who holds a session for that same e-mail (DESIGN §1.2).
  typed.post(
    '/api/jwt',
    {
      config: { access: 'session-cookie-only', owner: 'own-email-token', errors: [403, 429] },
      schema: {
        tags: ['auth'],
        operationId: 'issueToken',
        summary: 'Issue a one-hour API token for the signed-in user (session cookie required; own e-mail only)',
        body: JwtBody,
        response: { 200: JwtResponse },
      },
    },
    async (request) => {
      // The session cookie only: a token cannot renew itself. It names this session (`sid`) and
      // ends with it: at sign-out, revocation, a password change, or the hour's end (decision 009).
      const session = await sessionOf(request);
      if (!session) throw unauthenticated('Sign in to get a token');
      const user = { id: session.user.id, email: session.user.email.toLowerCase() };
      if (request.body.email !== user.email) throw forbidden('You can only get a token for your own account');
      await limits.tokens.consume(user.id);
      return { token: await opts.tokens.issue(user, session.session.id) };
    },
  );

  typed.get(
    '/api/config',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'getPublicConfig',
        summary: 'Which sign-in providers, payment gateway and mailbox the web app should offer (public)',
        response: {
          200: z.object({
            auth: z.object({ google: z.boolean(), oidc: z.object({ name: z.string() }).nullable() }),
            payments: z.object({
              gateway: z.enum(['test', 'stripe']),
              publishableKey: z.string().nullable(),
              stripeJsUrl: z.string().nullable(),
            }),
            mailbox: z.boolean(),
          }),
        },
      },
    },
    async () => ({ auth: opts.providers, payments: opts.payments, mailbox: opts.mailbox }),
  );
}
