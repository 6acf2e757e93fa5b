import { z } from 'zod';
import { ChangeEmailBody, UpdateUserBody } from '@skillhive/shared/rules/account-forms';
import { LoginBody } from '@skillhive/shared/rules/login-form';
import {
  RequestPasswordResetBody,
  ResetPasswordBody,
  SendVerificationBody,
  SignUpBody,
} from '@skillhive/shared/rules/auth-forms';
import type { OperationContract } from './openapi-access.ts';

type Json = Record<string, unknown>;

// Every POST here can be a 403: better-auth refuses a request whose Origin (or callbackURL) is not
// PUBLIC_URL when it carries a cookie (CSRF check).

function jsonSchemaOf(schema: z.core.$ZodType): Json {
  const out = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

const TIMESTAMP = { type: 'string', description: 'ISO 8601 date-time' };
const STRING = { type: 'string' };
const BOOLEAN = { type: 'boolean' };
const NULLABLE_STRING = { type: 'string', nullable: true };

/** A closed object schema: every property is required but those named `optional`. */
function object(properties: Json, optional: string[] = []): Json {
  const required = Object.keys(properties).filter((key) => !optional.includes(key));
  return { type: 'object', additionalProperties: false, required, properties };
}

/** The user as better-auth answers it, with our additional fields. */
const AUTH_USER = object(
  {
    id: STRING,
    email: STRING,
    name: STRING,
    image: NULLABLE_STRING,
    emailVerified: BOOLEAN,
    phone: NULLABLE_STRING,
    isAdmin: BOOLEAN,
    isTeacher: BOOLEAN,
    createdAt: TIMESTAMP,
    updatedAt: TIMESTAMP,
  },
  ['image', 'phone', 'isAdmin', 'isTeacher'],
);

const AUTH_SESSION = object(
  {
    id: STRING,
    token: STRING,
    userId: STRING,
    expiresAt: TIMESTAMP,
    ipAddress: NULLABLE_STRING,
    userAgent: NULLABLE_STRING,
    createdAt: TIMESTAMP,
    updatedAt: TIMESTAMP,
  },
  ['ipAddress', 'userAgent'],
);

const USER_REF = { $ref: '#/components/schemas/AuthUser' };
const SESSION_REF = { $ref: '#/components/schemas/AuthSession' };

/** The answer of the calls that make a new session for a user: sign-up, and a change of password. */
const TOKEN_AND_USER = object({ token: NULLABLE_STRING, user: USER_REF });

/** Component schemas the auth operations refer to. */
export const AUTH_COMPONENT_SCHEMAS: Record<string, Json> = { AuthUser: AUTH_USER, AuthSession: AUTH_SESSION };

const SET_COOKIE = {
  'Set-Cookie': {
    description: 'The better-auth session cookie (HttpOnly, SameSite=Lax).',
    schema: { type: 'string' },
  },
};

function ok(schema: Json, description: string, headers?: Json): Json {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
}

function body(schema: Json, required = true): Json {
  return { required, content: { 'application/json': { schema } } };
}

const STATUS_TRUE = object({ status: BOOLEAN });

const REDIRECT_URL = object({
  url: { type: 'string', description: "The provider's authorization URL to send the browser to." },
  redirect: BOOLEAN,
});

const CALLBACK_URLS = {
  callbackURL: {
    type: 'string',
    description:
      'Where the browser lands after signing in: a path on this site, or PUBLIC_URL followed by one (400 otherwise).',
  },
  errorCallbackURL: { type: 'string', description: 'Where the browser lands when signing in fails (same rule).' },
  newUserCallbackURL: { type: 'string', description: 'Where a first-time user lands (same rule).' },
  disableRedirect: BOOLEAN,
};

const FOUND = {
  description: 'A redirect to the callbackURL (or its error URL), setting the session cookie on success.',
  headers: { Location: { description: 'Where the browser goes next.', schema: { type: 'string' } }, ...SET_COOKIE },
};

interface AuthOperation {
  contract: OperationContract;
  operation: Json;
}

/**
 * Starting a sign-in at an outside provider (Google, or the OpenID Connect one): the provider is
 * named in one body field, and the answer is the URL to send the browser to.
 */
function startRedirectSignIn(operationId: string, summary: string, field: string, provider: string): AuthOperation {
  return {
    contract: { access: 'public', errors: [400, 403, 404, 429] },
    operation: {
      operationId,
      summary,
      requestBody: body({
        type: 'object',
        required: [field],
        properties: { [field]: { type: 'string', enum: [provider] }, ...CALLBACK_URLS },
      }),
      responses: { 200: ok(REDIRECT_URL, "The provider's URL to open") },
    },
  };
}

/** Where an outside provider sends the browser back after startRedirectSignIn: a redirect onwards. */
function providerCallback(operationId: string, summary: string, param: string, provider: string): AuthOperation {
  return {
    // 400 for a callback field in the query that would leave this site (the identity gate).
    contract: { access: 'public', errors: [400] },
    operation: {
      operationId,
      summary,
      parameters: [
        { in: 'path', name: param, required: true, schema: { type: 'string' }, description: provider },
        { in: 'query', name: 'code', required: false, schema: { type: 'string' } },
        { in: 'query', name: 'state', required: false, schema: { type: 'string' } },
      ],
      responses: { 302: FOUND },
    },
  };
}

/**
 * The better-auth endpoints people call, described by us (auth.routes.ts forwards them; their
 * routes are hidden from the generated document): each one's contract (who may call, errors) and
 * operation object. Bodies come from the shared Zod schemas, answers are written as better-auth
 * gives them.
 */
export const AUTH_OPERATIONS: Record<string, AuthOperation> = {
  'POST /api/auth/sign-up/email': {
    contract: { access: 'public', errors: [400, 403, 409, 429] },
    operation: {
      operationId: 'signUpEmail',
      summary: 'Create an account with e-mail and password and sign in (public)',
      description: 'The fields follow the sign-up form rules (spec §5). 409 when the e-mail is taken.',
      requestBody: body(jsonSchemaOf(SignUpBody)),
      responses: {
        200: ok(TOKEN_AND_USER, 'Signed up and signed in', SET_COOKIE),
      },
    },
  },
  'POST /api/auth/sign-in/email': {
    contract: { access: 'public', errors: [400, 401, 403, 429] },
    operation: {
      operationId: 'signInEmail',
      summary: 'Sign in with e-mail and password (public)',
      description: '401 for a wrong e-mail or password; 429 after too many failures for the account from one address.',
      requestBody: body({
        ...jsonSchemaOf(LoginBody),
        properties: {
          ...(jsonSchemaOf(LoginBody).properties as Json),
          rememberMe: BOOLEAN,
          callbackURL: STRING,
        },
      }),
      responses: {
        200: ok(
          object({ redirect: BOOLEAN, token: STRING, url: STRING, user: USER_REF }, ['url']),
          'Signed in',
          SET_COOKIE,
        ),
      },
    },
  },
  'POST /api/auth/sign-out': {
    contract: { access: 'public-session-aware', errors: [400, 403] },
    operation: {
      operationId: 'signOut',
      summary: 'End the current session and clear its cookie',
      responses: {
        200: ok(object({ success: BOOLEAN }), 'Signed out', SET_COOKIE),
      },
    },
  },
  'GET /api/auth/get-session': {
    // 400 for a callback field in the query that would leave this site (the identity gate).
    contract: { access: 'public-session-aware', errors: [400] },
    operation: {
      operationId: 'getSession',
      summary: 'The current session and user, or null without one',
      responses: {
        200: ok({ ...object({ session: SESSION_REF, user: USER_REF }), nullable: true }, 'The session, or null'),
      },
    },
  },
  'POST /api/auth/update-user': {
    contract: { access: 'session-cookie-only', errors: [400, 403] },
    operation: {
      operationId: 'updateUser',
      summary: "Change the signed-in user's name, photo URL or phone (spec §7 profile update)",
      description: 'E-mail and roles cannot be changed here.',
      requestBody: body(jsonSchemaOf(UpdateUserBody)),
      responses: { 200: ok(STATUS_TRUE, 'Updated') },
    },
  },
  'POST /api/auth/change-password': {
    contract: { access: 'session-cookie-only', errors: [400, 403] },
    operation: {
      operationId: 'changePassword',
      summary: "Change the signed-in user's password",
      description: '400 when the current password is wrong or the new one breaks the rules.',
      requestBody: body({
        type: 'object',
        required: ['currentPassword', 'newPassword'],
        properties: {
          currentPassword: { type: 'string' },
          newPassword: { type: 'string', minLength: 6, maxLength: 128 },
          revokeOtherSessions: { type: 'boolean' },
        },
      }),
      responses: {
        200: ok(TOKEN_AND_USER, 'Changed', SET_COOKIE),
      },
    },
  },
  'POST /api/auth/revoke-sessions': {
    contract: { access: 'session-cookie-only', errors: [403] },
    operation: {
      operationId: 'revokeSessions',
      summary: 'End every session of the signed-in user, this one included',
      responses: { 200: ok(STATUS_TRUE, 'Revoked') },
    },
  },
  'POST /api/auth/revoke-other-sessions': {
    contract: { access: 'session-cookie-only', errors: [403] },
    operation: {
      operationId: 'revokeOtherSessions',
      summary: 'End every session of the signed-in user but this one',
      responses: { 200: ok(STATUS_TRUE, 'Revoked') },
    },
  },
  'POST /api/auth/send-verification-email': {
    contract: { access: 'public-session-aware', errors: [400, 403, 429] },
    operation: {
      operationId: 'sendVerificationEmail',
      summary: 'Send the e-mail verification link again (public; with a session, only to its own address)',
      description:
        'Without a session the answer is the same whether or not an unverified account has this address. 400 when the signed-in address is verified already; 429 after RATE_LIMIT_MAIL_REQUESTS mails to one address in the window.',
      requestBody: body(jsonSchemaOf(SendVerificationBody)),
      responses: { 200: ok(STATUS_TRUE, 'Sent, when there was an unverified account to send to') },
    },
  },
  'GET /api/auth/verify-email': {
    // 400 for a callbackURL that would leave this site's origin or path (the identity gate); 401
    // for a bad token when no callbackURL was given; 409 for a change of address to one another
    // account took meanwhile, when no callbackURL was given.
    contract: { access: 'public', errors: [400, 401, 403, 409] },
    operation: {
      operationId: 'verifyEmail',
      summary: 'The link in a verification mail: marks the address verified (public; the browser follows it)',
      description:
        "Redirects to callbackURL (the web app's /email-verified, or the profile after a change of address); on a bad or expired token to callbackURL?error=INVALID_TOKEN or TOKEN_EXPIRED; for a change of address to one another account registered since the request, to callbackURL?error=EMAIL_TAKEN (nothing changes). callbackURL must be a path on this site with no dot segment (raw or percent-encoded), empty segment or backslash: anything else is a 400, never a redirect.",
      parameters: [
        { in: 'query', name: 'token', required: true, schema: { type: 'string' } },
        { in: 'query', name: 'callbackURL', required: false, schema: { type: 'string' } },
      ],
      responses: { 302: FOUND },
    },
  },
  'POST /api/auth/request-password-reset': {
    contract: { access: 'public', errors: [400, 403, 429] },
    operation: {
      operationId: 'requestPasswordReset',
      summary: 'Send a password-reset link (public; the same answer whether or not the account exists)',
      description:
        'The link works once, for one hour. 429 after RATE_LIMIT_MAIL_REQUESTS requests for one address in the window.',
      requestBody: body(jsonSchemaOf(RequestPasswordResetBody)),
      responses: {
        200: ok(object({ status: BOOLEAN, message: STRING }, ['message']), 'Requested'),
      },
    },
  },
  'GET /api/auth/reset-password/{token}': {
    // 400 for a callbackURL that would leave this site's origin or path (the identity gate).
    contract: { access: 'public', errors: [400, 403] },
    operation: {
      operationId: 'resetPasswordCallback',
      summary: 'The link in a reset mail (public; the browser follows it)',
      description: 'Redirects to callbackURL?token=… for a live token, callbackURL?error=INVALID_TOKEN otherwise.',
      parameters: [
        { in: 'path', name: 'token', required: true, schema: { type: 'string' } },
        { in: 'query', name: 'callbackURL', required: true, schema: { type: 'string' } },
      ],
      responses: { 302: FOUND },
    },
  },
  'POST /api/auth/reset-password': {
    contract: { access: 'public', errors: [400, 403, 429] },
    operation: {
      operationId: 'resetPassword',
      summary: 'Set a new password with the token from a reset link (public)',
      description:
        'The new password follows the sign-up rule (spec §5). Ends every session of the account, and with them its API tokens; marks the address verified. 400 INVALID_TOKEN for a used, expired or unknown token.',
      requestBody: body(jsonSchemaOf(ResetPasswordBody)),
      responses: { 200: ok(STATUS_TRUE, 'Changed') },
    },
  },
  'POST /api/auth/change-email': {
    contract: { access: 'session-cookie-only', errors: [400, 403, 429] },
    operation: {
      operationId: 'changeEmail',
      summary:
        "Change the signed-in user's e-mail: a link goes to the new address, and the change happens when it is followed",
      description:
        'Confirmed by `password` (403 when wrong, counted by the sign-in lockout, 429 when locked), or, for an account without one, a sign-in within the last 15 minutes. The current address is told, with a "this was not me" link (POST /api/users/not-me), when the change is asked for and when it completes. The same answer when the new address belongs to another account (nothing is sent there then). 429 after RATE_LIMIT_MAIL_REQUESTS mails to the new address in the window, all endpoints together.',
      requestBody: body(jsonSchemaOf(ChangeEmailBody)),
      responses: { 200: ok(STATUS_TRUE, 'Sent') },
    },
  },
  'POST /api/auth/sign-in/social': startRedirectSignIn(
    'signInSocial',
    'Start signing in with Google (public; only when Google is configured, see GET /api/config)',
    'provider',
    'google',
  ),
  'POST /api/auth/sign-in/oauth2': startRedirectSignIn(
    'signInOAuth2',
    'Start signing in with the OpenID Connect provider (public; only when one is configured)',
    'providerId',
    'oidc',
  ),
  'GET /api/auth/callback/{provider}': providerCallback(
    'socialCallback',
    'Where Google sends the browser back (public; the browser follows it, not API clients)',
    'provider',
    'google',
  ),
  'GET /api/auth/oauth2/callback/{providerId}': providerCallback(
    'oauth2Callback',
    'Where the OpenID Connect provider sends the browser back (public; the browser follows it)',
    'providerId',
    'oidc',
  ),
};

/** The endpoints of AUTH_OPERATIONS: the allow-list gate in front of better-auth agrees with them (decision 012). */
export const AUTH_ENDPOINTS = Object.keys(AUTH_OPERATIONS);
