import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JwtBody, JwtResponse, LoginBody, SignUpBody, UpdateUserBody } from '@skillhive/shared/auth';
import type { ErrorBody } from '@skillhive/shared/errors';
import { AppError, ErrorCode, forbidden, unauthenticated } from '../../lib/app-error.ts';
import type { Limiter } from '../../lib/rate-limit.ts';
import { toWebHeaders } from '../../plugins/auth.ts';
import { CLIENT_IP_HEADER, type Auth } from './auth.ts';
import type { TokenService } from './token.ts';

export interface AuthRoutesOptions {
  auth: Auth;
  tokens: TokenService;
  publicUrl: string;
  limits: { authPerIp: Limiter; loginFailures: Limiter; tokens: Limiter };
  providers: { google: boolean; oidc: { name: string } | null };
  payments: { gateway: 'test' | 'stripe'; publishableKey: string | null };
  /** Whether admins can read the outbox at /api/admin/mailbox (no SMTP_URL, not production). */
  mailbox: boolean;
}

function validationError(error: z.core.$ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  return new AppError(ErrorCode.VALIDATION, Object.values(fields)[0] ?? 'Invalid request', { fields });
}

/** better-auth's statuses → our error codes (DESIGN §3). */
function codeForStatus(status: number): ErrorCode {
  if (status === 400) return ErrorCode.VALIDATION;
  if (status === 401) return ErrorCode.UNAUTHENTICATED;
  if (status === 403) return ErrorCode.FORBIDDEN;
  if (status === 404) return ErrorCode.NOT_FOUND;
  if (status === 409 || status === 422) return ErrorCode.CONFLICT;
  if (status === 429) return ErrorCode.RATE_LIMITED;
  return status >= 500 ? ErrorCode.INTERNAL : ErrorCode.VALIDATION;
}

/** better-auth's error codes that belong to one form field, for the web forms. */
const FIELD_OF_AUTH_CODE: Record<string, string> = {
  USER_ALREADY_EXISTS: 'email',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'email',
  INVALID_EMAIL: 'email',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
};

/**
 * Errors under /api/auth/* carry the standard shape {error:{code,message},requestId} and, beside
 * it, better-auth's own top-level {code, message}, which its web client reads.
 */
type AuthErrorBody = ErrorBody & { code: string; message: string };

function toAuthErrorBody(
  status: number,
  requestId: string,
  upstream: { code?: unknown; message?: unknown } | null,
): AuthErrorBody {
  const authCode = typeof upstream?.code === 'string' ? upstream.code : codeForStatus(status);
  const message =
    status >= 500
      ? 'Something went wrong on our side. Please try again.'
      : typeof upstream?.message === 'string' && upstream.message !== ''
        ? upstream.message
        : 'The request could not be completed';
  const field = FIELD_OF_AUTH_CODE[authCode];
  return {
    error: { code: codeForStatus(status), message, ...(field ? { fields: { [field]: message } } : {}) },
    requestId,
    code: authCode,
    message,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const { auth, limits } = opts;

  // Our own failures here (validation, rate limits) also carry better-auth's top-level fields.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || !request.url.startsWith('/api/auth/')) return payload;
    const body = parseJson(payload) as Partial<AuthErrorBody> | null;
    if (!body?.error || body.message !== undefined) return payload;
    return JSON.stringify({ ...body, code: body.error.code, message: body.error.message });
  });

  /** Hands a request to better-auth as a Web Request and copies its answer back. */
  async function forward(request: FastifyRequest, reply: FastifyReply, body: unknown) {
    const headers = toWebHeaders(request);
    headers.delete('content-length');
    // better-auth reads the client address from this header only: Fastify's request.ip, which
    // honours X-Forwarded-For only when TRUST_PROXY says so (issue 3 §6).
    headers.set(CLIENT_IP_HEADER, request.ip);
    const hasBody = body !== undefined && request.method !== 'GET' && request.method !== 'HEAD';
    if (hasBody) headers.set('content-type', 'application/json');
    const response = await auth.handler(
      new Request(new URL(request.url, opts.publicUrl), {
        method: request.method,
        headers,
        body: hasBody ? JSON.stringify(body) : undefined,
      }),
    );
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    const text = await response.text();
    if (response.status >= 400) {
      // A duplicate e-mail is a conflict with existing state (DESIGN §3: 409), not better-auth's 422.
      const status = response.status === 422 ? 409 : response.status;
      if (status >= 500) request.log.error({ status, body: text.slice(0, 500) }, 'better-auth failed');
      const upstream = parseJson(text) as { code?: unknown; message?: unknown } | null;
      return reply
        .status(status)
        .type('application/json; charset=utf-8')
        .send(toAuthErrorBody(status, request.id, upstream));
    }
    reply.status(response.status);
    for (const [name, value] of response.headers) {
      if (name === 'set-cookie' || name === 'content-length' || name === 'content-encoding') continue;
      reply.header(name, value);
    }
    return reply.send(text.length > 0 ? text : null);
  }

  // Sign-up: the shared schema of spec §5 first, so the server says what the form says.
  app.post('/api/auth/sign-up/email', { schema: { hide: true } }, async (request, reply) => {
    await limits.authPerIp.consume(request.ip);
    const parsed = SignUpBody.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    return forward(request, reply, parsed.data);
  });

  // Sign-in: per-IP volume, and failed attempts per (account, IP) (issue 3 §6).
  app.post('/api/auth/sign-in/email', { schema: { hide: true } }, async (request, reply) => {
    await limits.authPerIp.consume(request.ip);
    const parsed = LoginBody.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    // Every attempt is counted before the password is checked, so a burst of parallel guesses
    // cannot all slip past the limit; a success clears the count, a non-credential error gives
    // its point back.
    const failureKey = `${parsed.data.email}|${request.ip}`;
    await limits.loginFailures.consume(failureKey);
    const sent = await forward(request, reply, { ...(request.body as object), ...parsed.data });
    if (reply.statusCode < 300) await limits.loginFailures.reset(failureKey);
    else if (reply.statusCode !== 401) await limits.loginFailures.refund(failureKey);
    return sent;
  });

  // Profile changes (spec §7: displayName, photoURL) follow the sign-up rules. Other keys go on to
  // better-auth, which refuses the role flags (input: false) and the e-mail.
  app.post('/api/auth/update-user', { schema: { hide: true } }, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new AppError(ErrorCode.VALIDATION, 'The request body must be a JSON object');
    }
    const parsed = UpdateUserBody.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error);
    return forward(request, reply, { ...body, ...parsed.data });
  });

  // Everything else better-auth offers (sign-out, get-session, social/OIDC flows, callbacks).
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if (path.startsWith('/api/auth/sign-in') || path.startsWith('/api/auth/sign-up')) {
        await limits.authPerIp.consume(request.ip);
      }
      return forward(request, reply, request.body);
    },
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();

  // spec §4/§7: a token only for a caller who holds a session for that same e-mail (DESIGN §1.2).
  typed.post(
    '/api/jwt',
    {
      schema: {
        tags: ['auth'],
        operationId: 'issueToken',
        summary: 'Issue a one-hour API token for the signed-in user (session cookie required; own e-mail only)',
        body: JwtBody,
        response: { 200: JwtResponse },
      },
    },
    async (request) => {
      // The session cookie only: a token cannot renew itself, so a leaked token dies within the hour.
      const session = request.headers.cookie ? await auth.api.getSession({ headers: toWebHeaders(request) }) : null;
      if (!session) throw unauthenticated('Sign in to get a token');
      const user = { id: session.user.id, email: session.user.email.toLowerCase() };
      if (request.body.email !== user.email) throw forbidden('You can only get a token for your own account');
      await limits.tokens.consume(user.id);
      return { token: await opts.tokens.issue(user) };
    },
  );

  typed.get(
    '/api/config',
    {
      schema: {
        tags: ['auth'],
        operationId: 'getPublicConfig',
        summary: 'Which sign-in providers, payment gateway and mailbox the web app should offer (public)',
        response: {
          200: z.object({
            auth: z.object({ google: z.boolean(), oidc: z.object({ name: z.string() }).nullable() }),
            payments: z.object({ gateway: z.enum(['test', 'stripe']), publishableKey: z.string().nullable() }),
            mailbox: z.boolean(),
          }),
        },
      },
    },
    async () => ({ auth: opts.providers, payments: opts.payments, mailbox: opts.mailbox }),
  );
}
