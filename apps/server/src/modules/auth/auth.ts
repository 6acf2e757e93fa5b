import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { genericOAuth } from 'better-auth/plugins';
import { eq } from 'drizzle-orm';
import { toOneLine } from '@skillhive/shared/rules/control-characters';
import { REPORT_MESSAGES, TEXT_MESSAGES } from '@skillhive/shared/rules/messages';
import type { Db } from '../../db/client.ts';
import * as identityTables from '../../db/schema/auth.ts';
// eslint-disable-next-line no-restricted-imports -- better-auth's adapter writes its user model itself (decision 015, known exception)
import { users } from '../../db/schema/users.ts';
import { recordEmailLink, revokeEmailLinks } from './email-links.public.ts';
import { checkIdentityBody, findEndpointByTemplate, findForeignCallback } from './identity-gate.ts';
import { changeEmailMail, queueMail, resetPasswordMail, verifyEmailMail } from '../mail/mail.service.ts';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';
import { contactEmailOf, isSuspended } from '../users/contact.public.ts';
import { grantAdminToVerifiedAddress, markEmailVerified } from '../users/users.service.ts';

/** How long a verification link works; a reset link works one hour, since it grants the account. */
export const VERIFY_EMAIL_SECONDS = 24 * 60 * 60;
export const RESET_PASSWORD_SECONDS = 60 * 60;

/** The header our Fastify wrapper sets to the socket's address (request.ip); see auth.routes.ts. */
export const CLIENT_IP_HEADER = 'x-skillhive-client-ip';
export const OIDC_PROVIDER_ID = 'oidc';

export interface AuthConfig {
  db: Db;
  secret: string;
  publicUrl: string;
  adminEmails: readonly string[];
  google?: { clientId: string; clientSecret: string } | undefined;
  oidc?: { issuer: string; clientId: string; clientSecret: string } | undefined;
  /** Where better-auth's own log lines go (the app's logger), instead of the console. */
  log?: AuthLog | undefined;
}

/** The part of a pino/Fastify logger better-auth's messages are handed to. */
export interface AuthLog {
  debug(obj: object, message: string): void;
  info(obj: object, message: string): void;
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

/** better-auth's tables: its adapter reads and writes them itself. */
const schema = { ...identityTables, users };

/** better-auth, configured for SkillHive: e-mail and password, Google and OIDC sign-in, roles on `users` (DESIGN §2). */
export function createAuth(config: AuthConfig) {
  const { db } = config;
  const isAdminEmail = (email: string) => config.adminEmails.includes(email.toLowerCase());
  const secure = config.publicUrl.startsWith('https://');

  /**
   * ADMIN_EMAILS grants admin only to a verified address (decision 014): whoever
   * registers a listed address first gets nothing until they prove it is theirs.
   */
  async function grantAdminIfListed(userId: string): Promise<void> {
    if (config.adminEmails.length === 0) return;
    await grantAdminToVerifiedAddress(db, userId, isAdminEmail);
  }

  return betterAuth({
    appName: 'SkillHive',
    secret: config.secret,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    trustedOrigins: [config.publicUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      usePlural: true,
      schema: {
        users: schema.users,
        sessions: schema.sessions,
        accounts: schema.accounts,
        verifications: schema.verifications,
      },
    }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      // Forgot password: the mail waits in the outbox like every
      // other; the link works once, for an hour; a reset ends every session, and with them every
      // API token (tokens name their session, decision 009).
      // The name is the account's own only once its address is proven: whoever registered an
      // address they do not own chose it, and it must not greet that address's owner.
      sendResetPassword: async ({ user, url }) => {
        await queueMail(db, user.email, resetPasswordMail({ name: user.emailVerified ? user.name : null, url }));
      },
      resetPasswordTokenExpiresIn: RESET_PASSWORD_SECONDS,
      revokeSessionsOnPasswordReset: true,
      // Following the link proved the address, as a verification link does.
      // It also revokes every link mailed before it (decision 028): a change of address asked for
      // by whoever held a session dies with the owner's reset.
      onPasswordReset: async ({ user }) => {
        await revokeEmailLinks(db, user.id);
        await markEmailVerified(db, user.id);
        await grantAdminIfListed(user.id);
      },
      password: {
        hash: hashPassword,
        // A hash in the old encoding or with weaker parameters is replaced once its password has
        // been proven (decision 013); the stored value itself identifies the account row.
        verify: async ({ hash, password }) => {
          const ok = await verifyPassword({ hash, password });
          if (ok && needsRehash(hash)) {
            await db
              .update(schema.accounts)
              .set({ password: await hashPassword(password), updatedAt: new Date() })
              .where(eq(schema.accounts.password, hash));
          }
          return ok;
        },
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // The link verifies; it does not sign anyone in (it may be opened on another device).
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_EMAIL_SECONDS,
      // Both mails go to an address nobody has proven yet, so they greet no one by name: the
      // name was chosen by whoever typed that address in.
      // Each link is recorded, so the identity gate can refuse one revoked since (decision 028).
      sendVerificationEmail: async ({ user, url, token }) => {
        await recordEmailLink(db, token, user.id, new Date(Date.now() + VERIFY_EMAIL_SECONDS * 1000));
        // A change of address sends this to the new address, which is not the account's yet.
        const current = await contactEmailOf(db, user.id);
        const isChange = current !== null && current.email !== user.email.toLowerCase();
        await queueMail(
          db,
          user.email,
          isChange ? changeEmailMail({ newEmail: user.email, url }) : verifyEmailMail({ url }),
        );
      },
      afterEmailVerification: async (user) => grantAdminIfListed(user.id),
    },
    user: {
      // A new address counts only once its owner follows the link sent to it.
      changeEmail: { enabled: true, updateEmailWithoutVerification: false },
      additionalFields: {
        phone: { type: 'string', required: false, input: true },
        // Roles are never taken from a request (DESIGN §1.1): input false.
        isAdmin: { type: 'boolean', required: false, defaultValue: false, input: false },
        isTeacher: { type: 'boolean', required: false, defaultValue: false, input: false },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    account: {
      // A Google or OIDC sign-in joins an existing account only when that account's address is
      // verified: someone who registered a victim's address with a password of their own cannot
      // have the victim's provider sign-in land in it (account pre-hijacking, decision 014). The
      // provider's button then answers "account not linked" until the address is verified.
      accountLinking: {
        enabled: true,
        trustedProviders: ['google', OIDC_PROVIDER_ID],
        requireLocalEmailVerified: true,
      },
    },
    socialProviders: config.google
      ? {
          google: {
            clientId: config.google.clientId,
            clientSecret: config.google.clientSecret,
            prompt: 'select_account',
          },
        }
      : {},
    plugins: config.oidc
      ? [
          genericOAuth({
            config: [
              {
                providerId: OIDC_PROVIDER_ID,
                discoveryUrl: `${config.oidc.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
                clientId: config.oidc.clientId,
                clientSecret: config.oidc.clientSecret,
                scopes: ['openid', 'email', 'profile'],
                pkce: true,
              },
            ],
          }),
        ]
      : [],
    // Our own limiter keys on the real client address (auth.routes.ts); better-auth's is off.
    rateLimit: { enabled: false },
    // An unexpected failure (a database error) is thrown to our error handler, which logs it
    // without its parameters; otherwise better-call prints it, bound values and all, with
    // console.error. better-auth's own API errors (4xx) are still answered as responses.
    // A provider sign-in that fails (refused state, an account that may not be linked) sends the
    // browser back to the sign-in page, which says why (?error=…), not to better-auth's own page.
    onAPIError: { throw: true, errorURL: `${config.publicUrl}/login` },
    logger: config.log
      ? {
          // Not 'debug'/'warn'/'error': at those levels better-auth also prints every 4xx it
          // answers to the console, bypassing `log`. Expected refusals are ours to log.
          level: 'info',
          log: (level, message, ...args) =>
            config.log?.[level]({ source: 'better-auth', ...(args.length > 0 ? { args } : {}) }, message),
        }
      : undefined,
    advanced: {
      // better-auth skips its Origin/CSRF checks when NODE_ENV is "test"; ours run them always, so
      // the tests exercise what production does.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    hooks: {
      // Defence in depth behind the identity gate (auth.routes.ts, decision 009): should a request
      // ever reach better-auth by another way than the gate, an endpoint off the allow-list is
      // still refused and the shared schemas (spec §5 password rule included) still hold. Server
      // calls (auth.api.*, no request) are the app's own and pass. The gate stays the main check:
      // it alone knows the client address the limits key on, and it forces the fields it forces.
      before: createAuthMiddleware(async (ctx) => {
        if (!ctx.request) return;
        const endpoint = findEndpointByTemplate(ctx.path);
        if (!endpoint) throw new APIError('NOT_FOUND', { message: 'Not found' });
        if (findForeignCallback(new URL(ctx.request.url), ctx.body, config.publicUrl)) {
          throw new APIError('BAD_REQUEST', { message: TEXT_MESSAGES.callback });
        }
        const checked = checkIdentityBody(endpoint, ctx.body);
        if (!checked.ok) {
          const message =
            checked.error === 'not-an-object'
              ? 'The request body must be a JSON object'
              : (checked.error.issues[0]?.message ?? 'Invalid request');
          throw new APIError('BAD_REQUEST', { message });
        }
      }),
    },
    databaseHooks: {
      user: {
        create: {
          // Everyone starts as a student; only verified ADMIN_EMAILS become admins (decision 014):
          // a provider's verified address at once, a password account once it is verified.
          // A provider's name (Google, OIDC) skips our forms' schemas: it is made one line here, as
          // every single-line field is (names go into mail greetings and calendar lines).
          before: async (user) => ({
            data: {
              ...user,
              name: typeof user.name === 'string' ? toOneLine(user.name).trim() : user.name,
              email: user.email.toLowerCase(),
              isAdmin: user.emailVerified === true && isAdminEmail(user.email),
              isTeacher: false,
            },
          }),
        },
      },
      session: {
        create: {
          // A suspended account signs in nowhere (decision 043): by password, Google or OIDC alike,
          // every sign-in makes a session here first.
          before: async (session) => {
            if (await isSuspended(db, session.userId)) {
              throw new APIError('FORBIDDEN', { message: REPORT_MESSAGES.suspended, code: 'ACCOUNT_SUSPENDED' });
            }
          },
          after: async (session) => grantAdminIfListed(session.userId),
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
