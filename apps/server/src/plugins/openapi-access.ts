import type { FastifyContextConfig } from 'fastify';
import { OWNERSHIP_RULES, type Access } from '../lib/authorize.ts';

/**
 * How a route's declared access (its config, decision 025) is written into the API document: the
 * swagger plugin's transformObject turns each route's config into its `security`, its error
 * responses (all with the one ErrorResponse envelope of DESIGN §3) and its "Who may call" line,
 * so the document says what the access hook enforces. What stays here cannot be derived: the
 * wording of each access, the error descriptions, the path aliases of spec §7 URLs.
 */
export type OperationContract = Pick<FastifyContextConfig, 'owner' | 'errors' | 'list' | 'cappedTotal'> & {
  access: Access;
};

const WHO: Record<Access, string> = {
  public: 'anyone, no credentials needed',
  'public-viewer-aware': 'anyone; with a session cookie or Bearer token the answer can show more',
  'public-session-aware': 'anyone; the session cookie is read when sent',
  'signed-in': 'any signed-in user (session cookie or Bearer token)',
  verified: 'any signed-in user with a verified e-mail address (403 email_not_verified otherwise)',
  admin: 'admins only',
  teacher: 'teachers only',
  'self-or-admin': 'the user named in the path (their own e-mail), or an admin',
  'session-cookie-only': 'a signed-in user, by session cookie only (a Bearer token is not accepted)',
  signature: 'Stripe only, proven by the Stripe-Signature header',
  'metrics-token': 'an operator, with METRICS_TOKEN as Bearer token',
};

const SESSION = { session: [] as string[] };
const BEARER = { bearer: [] as string[] };

/** OpenAPI `security` for each kind of caller ({} = anonymous allowed). */
export const SECURITY: Record<Access, Record<string, string[]>[]> = {
  public: [],
  'public-viewer-aware': [{}, SESSION, BEARER],
  'public-session-aware': [{}, SESSION],
  'signed-in': [SESSION, BEARER],
  verified: [SESSION, BEARER],
  admin: [SESSION, BEARER],
  teacher: [SESSION, BEARER],
  'self-or-admin': [SESSION, BEARER],
  'session-cookie-only': [SESSION],
  signature: [{ stripeSignature: [] }],
  'metrics-token': [],
};

const ANONYMOUS: ReadonlySet<Access> = new Set(['public', 'public-viewer-aware', 'public-session-aware', 'signature']);
const ROLE_CHECKED: ReadonlySet<Access> = new Set(['verified', 'admin', 'teacher', 'self-or-admin']);

/**
 * Paths whose operations answer for different things under one template (spec §7 URLs): the
 * document gives them one parameter name, described, instead of two identical paths.
 */
export const PATH_ALIASES: Record<string, { path: string; from: string; to: string; description: string }> = {
  '/api/enrolled/{email}': {
    path: '/api/enrolled/{emailOrId}',
    from: 'email',
    to: 'emailOrId',
    description: "GET: the student's e-mail. DELETE: an enrollment id.",
  },
  '/api/enrolled/{id}': {
    path: '/api/enrolled/{emailOrId}',
    from: 'id',
    to: 'emailOrId',
    description: "GET: the student's e-mail. DELETE: an enrollment id.",
  },
};

/** The path parameter `user` of /api/users/admin/{user} (users.routes.ts). */
export const USER_PATH_PARAM_DESCRIPTION =
  'GET: the e-mail of the user asked about. PATCH: the id of the user to promote.';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'validation_error: the body, path or query is invalid (`fields` names each bad field)',
  401: 'unauthenticated: no valid session cookie or Bearer token',
  402: 'card_declined or insufficient_funds: the gateway refused the card',
  403: 'forbidden: signed in, but without the role or ownership this call needs (under /api/auth/*: an untrusted Origin)',
  404: 'not_found: no such resource, or the caller may not know it exists',
  409: "conflict: the call conflicts with the resource's current state",
  413: 'payload_too_large: the body or upload is too large',
  415: 'unsupported_media_type: the body is not of a type this call reads',
  429: 'rate_limited: too many attempts; try again later',
  500: 'internal_error: something unexpected; the requestId is in our logs',
  503: 'unavailable: the database, storage or payment service is unreachable',
};

/** The error envelope every failure carries (packages/shared/src/contracts/errors.ts, DESIGN §3). */
export const ERROR_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['error', 'requestId'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: {
          type: 'string',
          description:
            'validation_error, unauthenticated, forbidden, not_found, conflict, card_declined, insufficient_funds, payload_too_large, unsupported_media_type, rate_limited, unavailable or internal_error',
        },
        message: { type: 'string', description: 'A sentence the user may read.' },
        fields: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Per-field messages of a validation error: { fieldPath: message }.',
        },
      },
    },
    requestId: { type: 'string', description: 'The X-Request-Id of the call, to quote to support.' },
    code: { type: 'string', description: "Under /api/auth/* only: better-auth's own error code, for its web client." },
    message: { type: 'string', description: 'Under /api/auth/* only: the same message as error.message.' },
  },
} as const;

export const ERROR_RESPONSE_REF = { $ref: '#/components/schemas/ErrorResponse' } as const;

const TOTAL_COUNT_HEADER_OBJECT = {
  description: 'How many items the whole list holds, across all pages.',
  required: true,
  schema: { type: 'integer', minimum: 0 },
};

const TOTAL_COUNT_CAPPED_HEADER_OBJECT = {
  description:
    'Sent as "true" when X-Total-Count is a floor rather than a count: a search counts its matches only up to 1 000, and more than that match ("1,000+"). Absent when X-Total-Count is exact.',
  required: false,
  schema: { type: 'string', enum: ['true'] },
};

type Json = Record<string, unknown>;

export function errorResponse(status: number): Json {
  return {
    description: ERROR_DESCRIPTIONS[status] ?? 'An error',
    content: { 'application/json': { schema: ERROR_RESPONSE_REF } },
  };
}

/**
 * The error statuses an operation can answer: its inputs, its access and its own extras. Every
 * operation can answer 400 (a NUL byte or a malformed header or URL, plugins/input-guard.ts) and
 * 503 (a dependency is down, or the instance is shutting down); every unsafe one 403 (a
 * cookie-authenticated request from another site, plugins/csrf.ts), 413 and 415 (its body).
 */
export function errorStatusesOf(operation: Json, contract: OperationContract, method = 'get'): number[] {
  const statuses = new Set<number>([400, 500, 503, ...(contract.errors ?? [])]);
  if (!['get', 'head', 'options'].includes(method.toLowerCase())) {
    for (const status of [403, 413, 415]) statuses.add(status);
  }
  const parameters = (operation.parameters as { in: string }[] | undefined) ?? [];
  if (parameters.length > 0 || operation.requestBody) statuses.add(400);
  if (operation.requestBody) {
    statuses.add(413);
    statuses.add(415);
  }
  if (parameters.some((p) => p.in === 'path')) statuses.add(404);
  if (!ANONYMOUS.has(contract.access)) statuses.add(401);
  const rule = contract.owner && OWNERSHIP_RULES[contract.owner];
  if (ROLE_CHECKED.has(contract.access) || (rule && 'forbidden' in rule)) statuses.add(403);
  if (contract.access === 'signature') statuses.add(400);
  return [...statuses].sort((a, b) => a - b);
}

/** Writes the contract's security, error responses, list header and "Who may call" into one operation. */
export function applyContract(operation: Json, contract: OperationContract, method = 'get'): void {
  operation.security = SECURITY[contract.access];
  const who = `Who may call: ${contract.owner ? OWNERSHIP_RULES[contract.owner].who : WHO[contract.access]}.`;
  operation.description = operation.description ? `${who}\n\n${String(operation.description)}` : who;
  const responses = (operation.responses ??= {}) as Record<string, Json>;
  for (const status of errorStatusesOf(operation, contract, method)) {
    responses[String(status)] ??= errorResponse(status);
  }
  if (contract.list) {
    const ok = responses['200'];
    if (ok) ok.headers = { ...(ok.headers as Json | undefined), 'X-Total-Count': TOTAL_COUNT_HEADER_OBJECT };
    if (ok && contract.cappedTotal) {
      ok.headers = { ...(ok.headers as Json), 'X-Total-Count-Capped': TOTAL_COUNT_CAPPED_HEADER_OBJECT };
    }
  }
  for (const [status, response] of Object.entries(responses)) {
    if (response.description === 'Default Response') response.description = Number(status) < 300 ? 'Success' : 'Error';
  }
}

/** "GET /api/classes/{id}" for GET /api/classes/:id: a route as the document names its operation. */
export function operationKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url.replace(/:(\w+)/g, '{$1}')}`;
}
