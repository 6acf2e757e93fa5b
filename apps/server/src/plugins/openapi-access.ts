/**
 * Who may call each operation of the API and which errors it answers (decision 012). The swagger
 * plugin's transformObject turns this table into each operation's `security`, its error responses
 * (all with the one ErrorResponse envelope of DESIGN §3) and its "Who may call" line; a test fails
 * when a route of the app has no row here, so a new endpoint cannot slip into the document
 * undescribed. Keys are "METHOD /path" with the path as the document writes it.
 */

/** Who may call: decides `security` and whether 401/403 can be answered. */
export type Access =
  /** Anyone, no credentials read. */
  | 'public'
  /** Anyone; a session or token, when sent, shows more (an admin sees every status). */
  | 'public-viewer-aware'
  /** Any signed-in user (session cookie or Bearer token). */
  | 'signed-in'
  /** A signed-in user who owns the resource, or an admin (403 otherwise). */
  | 'owner-or-admin'
  /** A signed-in user who owns the resource (403 otherwise). */
  | 'owner'
  | 'admin'
  | 'teacher'
  /** The user named by the e-mail in the path, or an admin. */
  | 'self-or-admin'
  /** The better-auth session cookie only: a Bearer token is not accepted. */
  | 'session-cookie-only'
  /** Anyone, but the better-auth session cookie is read when sent. */
  | 'public-session-aware'
  /** Stripe, proven by the Stripe-Signature header over the raw body. */
  | 'signature';

export interface OperationContract {
  access: Access;
  /** Replaces the access's default "Who may call" wording when the rule is narrower. */
  who?: string;
  /** Error statuses beyond the ones implied by the access and the operation's inputs. */
  errors?: readonly number[];
  /** A list answering its total count in X-Total-Count (DESIGN §3). */
  list?: true;
  /** A list whose total may be a floor, said by X-Total-Count-Capped (a search's "1,000+", decision 018). */
  cappedTotal?: true;
}

const WHO: Record<Access, string> = {
  public: 'anyone, no credentials needed',
  'public-viewer-aware': 'anyone; with a session cookie or Bearer token the answer can show more',
  'signed-in': 'any signed-in user (session cookie or Bearer token)',
  'owner-or-admin': 'the owner of the resource, or an admin',
  owner: 'the owner of the resource only',
  admin: 'admins only',
  teacher: 'teachers only',
  'self-or-admin': 'the user named in the path (their own e-mail), or an admin',
  'session-cookie-only': 'a signed-in user, by session cookie only (a Bearer token is not accepted)',
  'public-session-aware': 'anyone; the session cookie is read when sent',
  signature: 'Stripe only, proven by the Stripe-Signature header',
};

const SESSION = { session: [] as string[] };
const BEARER = { bearer: [] as string[] };

/** OpenAPI `security` for each kind of caller ({} = anonymous allowed). */
export const SECURITY: Record<Access, Record<string, string[]>[]> = {
  public: [],
  'public-viewer-aware': [{}, SESSION, BEARER],
  'signed-in': [SESSION, BEARER],
  'owner-or-admin': [SESSION, BEARER],
  owner: [SESSION, BEARER],
  admin: [SESSION, BEARER],
  teacher: [SESSION, BEARER],
  'self-or-admin': [SESSION, BEARER],
  'session-cookie-only': [SESSION],
  'public-session-aware': [{}, SESSION],
  signature: [{ stripeSignature: [] }],
};

const ANONYMOUS: ReadonlySet<Access> = new Set(['public', 'public-viewer-aware', 'public-session-aware', 'signature']);
const ROLE_CHECKED: ReadonlySet<Access> = new Set(['owner-or-admin', 'owner', 'admin', 'teacher', 'self-or-admin']);

/**
 * Paths whose operations answer for different things under one template (spec §7 URLs): the
 * document gives them one parameter name, described, instead of two identical paths.
 */
export const PATH_ALIASES: Record<string, { path: string; from: string; to: string; description: string }> = {
  '/api/enrolled/{email}': {
    path: '/api/enrolled/{emailOrId}',
    from: 'email',
    to: 'emailOrId',
    description: "GET: the student's e-mail. DELETE: an enrolment id.",
  },
  '/api/enrolled/{id}': {
    path: '/api/enrolled/{emailOrId}',
    from: 'id',
    to: 'emailOrId',
    description: "GET: the student's e-mail. DELETE: an enrolment id.",
  },
};

/** The path parameter `user` of /api/users/admin/{user} (users.routes.ts). */
export const USER_PATH_PARAM_DESCRIPTION =
  'GET: the e-mail of the user asked about. PATCH: the id of the user to promote.';

/** Every operation of the API, as the document names it. */
/** The callers of the class-scoped routes, each written once (the "Who may call" line). */
const CLASS_TEACHER = { access: 'teacher', who: 'the teacher of the class only' } as const;
const CLASS_TEACHER_OR_ADMIN = { access: 'owner-or-admin', who: 'the teacher of the class, or an admin' } as const;
const PAID_STUDENT_OWN_MARK = {
  access: 'owner',
  who: 'a student whose enrolment in the class is paid, for their own mark',
} as const;

export const OPERATIONS: Record<string, OperationContract> = {
  'GET /api/health': { access: 'public' },
  'GET /api/ready': { access: 'public', errors: [503] },
  'POST /api/jwt': {
    access: 'session-cookie-only',
    who: 'a signed-in user, by session cookie only, for their own e-mail (403 for another)',
    errors: [403, 429],
  },
  'GET /api/config': { access: 'public' },

  'POST /api/enrolled': {
    access: 'signed-in',
    who: 'any signed-in user, not for their own class',
    errors: [403, 404, 409],
  },
  'GET /api/enrolled/{emailOrId}': { access: 'self-or-admin', list: true },
  'DELETE /api/enrolled/{emailOrId}': { access: 'owner', who: 'the student of the enrolment only', errors: [409] },

  'POST /api/create-payment-intent': {
    access: 'signed-in',
    who: 'any signed-in user with a verified e-mail address (403 email_not_verified otherwise)',
    errors: [403, 404, 409, 429, 503],
  },
  'POST /api/payments': { access: 'signed-in', who: 'the student who paid', errors: [403, 404, 409, 503] },
  'GET /api/payments/{email}': { access: 'self-or-admin', list: true },
  'GET /api/payments/me': { access: 'signed-in', who: 'any signed-in user, their own payments only', list: true },
  'GET /api/payments/me/{id}': {
    access: 'signed-in',
    who: 'any signed-in user, their own payments only (404 for another’s)',
    errors: [404],
  },
  'POST /api/test-gateway/confirm': { access: 'owner', who: "the intent's owner", errors: [402, 404, 409] },
  'POST /api/test-gateway/authenticate': { access: 'owner', who: "the intent's owner", errors: [402, 404, 409] },
  'POST /api/webhooks/stripe': { access: 'signature', errors: [503] },

  'GET /api/admin/payments': { access: 'admin', list: true },
  'POST /api/admin/payments/{id}/refunds': { access: 'admin', errors: [404, 409, 503] },
  'GET /api/admin/refund-requests': { access: 'admin', list: true },
  'POST /api/admin/refund-requests/{id}/approve': { access: 'admin', errors: [404, 409, 503] },
  'POST /api/admin/refund-requests/{id}/decline': { access: 'admin', errors: [404, 409] },
  'POST /api/refund-requests': {
    access: 'signed-in',
    who: 'the student of the enrolment (404 for another’s)',
    errors: [404, 409],
  },
  'GET /api/refund-requests/mine': { access: 'signed-in', who: 'any signed-in user, their own requests only' },

  'POST /api/admin/coupons': { access: 'admin', errors: [409] },
  'GET /api/admin/coupons': { access: 'admin', list: true },
  'POST /api/teachers/me/coupons': { access: 'teacher', errors: [409] },
  'GET /api/teachers/me/coupons': { access: 'teacher', list: true },
  'POST /api/coupons/{id}/disable': {
    access: 'signed-in',
    who: 'the coupon’s teacher, or an admin (404 for anyone else)',
    errors: [404],
  },

  'GET /api/reviews': { access: 'public', list: true },
  'POST /api/reviews': {
    access: 'owner',
    who: 'a student with a paid enrolment in the class',
    errors: [404, 409],
  },

  'POST /api/teachers/teacher-requests': {
    access: 'signed-in',
    who: 'any signed-in user who is not a teacher, with a verified e-mail address (403 email_not_verified otherwise)',
    errors: [403, 409],
  },
  'GET /api/teachers/teacher-requests': { access: 'admin', list: true },
  'GET /api/teachers/teacher-requests/mine': { access: 'signed-in' },
  'PATCH /api/teachers/teacher-requests/{id}/approve': { access: 'admin', errors: [409] },
  'PATCH /api/teachers/teacher-requests/{id}/reject': { access: 'admin', errors: [409] },

  'POST /api/uploads/images': { access: 'signed-in', errors: [400, 413, 415, 429, 503] },
  'GET /api/uploads/images/{key}': { access: 'public', errors: [503] },

  'POST /api/classes': { access: 'teacher' },
  'GET /api/classes': { access: 'public-viewer-aware', list: true, cappedTotal: true },
  'GET /api/classes/teacher/{email}': {
    access: 'self-or-admin',
    who: 'that teacher (their own e-mail), or an admin',
    list: true,
  },
  'GET /api/classes/{id}': {
    access: 'public-viewer-aware',
    who: 'anyone for an accepted class; its teacher and admins for any status',
  },
  'GET /api/classes/suggestions': { access: 'public' },
  'GET /api/classes/categories': { access: 'public' },
  'GET /api/classes/{id}/public': { access: 'public', who: 'anyone, for an accepted class', errors: [404] },
  'GET /api/classes/{id}/stats': { ...CLASS_TEACHER_OR_ADMIN },
  'PATCH /api/classes/{id}': { ...CLASS_TEACHER, errors: [409] },
  'DELETE /api/classes/{id}': { ...CLASS_TEACHER_OR_ADMIN, errors: [409] },
  'PATCH /api/classes/class-requests/{id}/approve': { access: 'admin', errors: [409] },
  'PATCH /api/classes/class-requests/{id}/reject': { access: 'admin', errors: [409] },
  'GET /api/classes/revisions': { access: 'admin', list: true },
  'GET /api/classes/{id}/revision': { ...CLASS_TEACHER_OR_ADMIN },
  'PATCH /api/classes/revisions/{id}/approve': { access: 'admin', errors: [409] },
  'PATCH /api/classes/revisions/{id}/reject': { access: 'admin', errors: [409] },

  // Class content (decision 021): the class's teacher edits; paid students, the teacher and admins read.
  'GET /api/classes/{id}/content': {
    access: 'owner-or-admin',
    who: 'a student whose enrolment in the class is paid (published items), its teacher, or an admin',
    errors: [404],
  },
  'GET /api/classes/{id}/calendar.ics': {
    access: 'owner-or-admin',
    who: 'a student whose enrolment in the class is paid, its teacher, or an admin',
    errors: [404],
  },
  'GET /api/classes/{id}/progress': { ...CLASS_TEACHER_OR_ADMIN, errors: [404] },
  'POST /api/classes/{id}/sessions': { ...CLASS_TEACHER, errors: [404, 409] },
  'PUT /api/classes/{id}/sessions/order': { ...CLASS_TEACHER, errors: [404] },
  'PATCH /api/class-sessions/{id}': { ...CLASS_TEACHER, errors: [404] },
  'POST /api/class-sessions/{id}/publish': { ...CLASS_TEACHER, errors: [404] },
  'DELETE /api/class-sessions/{id}': { ...CLASS_TEACHER, errors: [404] },
  'PUT /api/class-sessions/{id}/attendance': { ...PAID_STUDENT_OWN_MARK, errors: [404, 409] },
  'POST /api/classes/{id}/materials': { ...CLASS_TEACHER, errors: [404, 409] },
  'POST /api/classes/{id}/materials/file': { ...CLASS_TEACHER, errors: [404, 409, 413, 415, 429, 503] },
  'PUT /api/classes/{id}/materials/order': { ...CLASS_TEACHER, errors: [404] },
  'PATCH /api/materials/{id}': { ...CLASS_TEACHER, errors: [404] },
  'POST /api/materials/{id}/publish': { ...CLASS_TEACHER, errors: [404] },
  'DELETE /api/materials/{id}': { ...CLASS_TEACHER, errors: [404] },
  'GET /api/materials/{id}/file': {
    access: 'owner-or-admin',
    who: 'a student whose enrolment in the class is paid (published materials), its teacher, or an admin',
    errors: [404, 503],
  },
  'PUT /api/materials/{id}/completion': { ...PAID_STUDENT_OWN_MARK, errors: [404] },

  'GET /api/users/admin/{user}': { access: 'self-or-admin' },
  'PATCH /api/users/admin/{user}': { access: 'admin', errors: [409] },
  'GET /api/users/teacher/{email}': { access: 'self-or-admin' },
  'GET /api/users/profile/{email}': { access: 'self-or-admin' },
  'POST /api/users': { access: 'signed-in' },
  'GET /api/users': { access: 'admin', list: true },
  'GET /api/users/me/notifications': { access: 'signed-in', who: 'any signed-in user, their own' },
  'PUT /api/users/me/notifications': { access: 'signed-in', who: 'any signed-in user, their own' },
  'GET /api/users/me/sessions': { access: 'signed-in', who: 'any signed-in user, their own' },
  'DELETE /api/users/me/sessions/{id}': {
    access: 'signed-in',
    who: 'any signed-in user, their own sessions only (404 for another)',
    errors: [404],
  },
  'DELETE /api/users/me': {
    access: 'signed-in',
    who: 'any signed-in user, their own account, confirmed by password or a sign-in in the last 15 minutes',
    errors: [403, 404, 409, 429],
  },
  'DELETE /api/users/{id}': { access: 'admin', who: 'admins only; not themself, not the last admin', errors: [409] },

  'GET /api/teachers/me/stats': { access: 'teacher', who: 'teachers only, for their own classes' },
  'GET /api/teachers/me/classes/{id}/roster': {
    access: 'teacher',
    who: "the class's own teacher only (404 for another teacher's class, whoever asks; 403 for non-teachers)",
    list: true,
  },
  'GET /api/admin/stats': { access: 'admin' },

  'GET /api/audit': { access: 'admin', list: true },
  'GET /api/admin/mailbox': {
    access: 'admin',
    who: 'admins only, where mail waits in the outbox (no SMTP_URL, not production; else 404)',
    errors: [404],
    list: true,
  },
};

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
  if (ROLE_CHECKED.has(contract.access)) statuses.add(403);
  if (contract.access === 'signature') statuses.add(400);
  return [...statuses].sort((a, b) => a - b);
}

/** Writes the contract's security, error responses, list header and "Who may call" into one operation. */
export function applyContract(operation: Json, contract: OperationContract, method = 'get'): void {
  operation.security = SECURITY[contract.access];
  const who = `Who may call: ${contract.who ?? WHO[contract.access]}.`;
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

/** "GET /api/classes/{id}": the key of OPERATIONS for a method and a document path. */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
