import { ACCESS_TOKEN_KEY } from '@skillhive/shared/rules/constants';
import type { ErrorBody } from '@skillhive/shared/contracts/errors';
import { type ErrorCode, TOTAL_COUNT_CAPPED_HEADER, TOTAL_COUNT_HEADER } from '@skillhive/shared/rules/http';
import type { paths } from '../generated/api.ts';

/** Every API route lives under /api on the same origin (DESIGN §2). */
export const API_BASE = '/api';

/** An API failure with the server's error body (DESIGN §3) unpacked. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  readonly requestId: string | undefined;
  /**
   * Under /api/auth/*: better-auth's own code, sent beside the standard body (INVALID_PASSWORD,
   * INVALID_TOKEN, …), which tells apart what the standard code groups as validation_error.
   */
  readonly authCode: string | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    fields?: Record<string, string>;
    requestId?: string;
    authCode?: string;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.fields = init.fields;
    this.requestId = init.requestId;
    this.authCode = init.authCode;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A message fit to show a user, whatever was thrown. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** The session token of spec §4, kept in local storage under `access-token` (spec §9). */
export const tokenStorage = {
  get(): string | null {
    try {
      return window.localStorage.getItem(ACCESS_TOKEN_KEY);
    } catch {
      return null;
    }
  },
  set(token: string): void {
    try {
      window.localStorage.setItem(ACCESS_TOKEN_KEY, token);
    } catch {
      /* storage unavailable (private mode quota): secured calls will be refused and handled */
    }
  },
  clear(): void {
    try {
      window.localStorage.removeItem(ACCESS_TOKEN_KEY);
    } catch {
      /* nothing stored */
    }
  },
};

type UnauthorizedHandler = () => void | Promise<void>;
let unauthorizedHandler: UnauthorizedHandler | null = null;
let unauthorizedInFlight: Promise<void> | null = null;

/** The one code that means "this session is gone" (DESIGN §3). */
const UNAUTHENTICATED = 'unauthenticated' satisfies ErrorCode;

/** Whether a failed secured call means the person is no longer signed in. */
export function isUnauthenticated(error: ApiError): boolean {
  return error.code === UNAUTHENTICATED;
}

/**
 * The one interceptor of spec §6/§8, narrowed by DESIGN §3: only an `unauthenticated` answer
 * (401) to a secured call signs the user out and sends them to /login. A 403 is a refusal of one
 * action (the role or the ownership is missing) and a 409/422 a business refusal (your own class,
 * an unpaid review): both stay an error on that screen. The auth provider registers the handler
 * (it owns navigation); several failing calls at once trigger it only once.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

async function handleUnauthorized(): Promise<void> {
  tokenStorage.clear();
  if (!unauthorizedHandler) return;
  unauthorizedInFlight ??= Promise.resolve()
    .then(() => unauthorizedHandler?.())
    .catch(() => undefined)
    .finally(() => {
      unauthorizedInFlight = null;
    });
  await unauthorizedInFlight;
}

type QueryValue = string | number | boolean | null | undefined;

/*
 * The calls are typed by the server's OpenAPI document (decision 033): `paths` is what
 * openapi-typescript generates from it (src/generated/api.ts, written by `npm run api:types`
 * before every typecheck, never committed). A path is written as the document's template without
 * the /api prefix ('/classes/{id}'), its parameters go in `path`, and the query, the body and the
 * answer take the document's types, so a route renamed or removed on the server, a query
 * parameter it no longer reads or a field it no longer sends fails the web typecheck. Types only:
 * nothing of the document reaches the build.
 */
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Defined<T> = Exclude<T, undefined>;

/** The document's paths under /api that answer `M`, without the prefix. */
export type ApiPath<M extends Method> = {
  [K in keyof paths]: K extends `/api${infer P}` ? ([Defined<paths[K][M]>] extends [never] ? never : P) : never;
}[keyof paths];

type Operation<P extends string, M extends Method> = `/api${P}` extends keyof paths
  ? Defined<paths[`/api${P}`][M]>
  : never;

type PathParamsOf<Op> = Op extends { parameters: { path: infer T } } ? T : never;
type QueryOf<Op> = Op extends { parameters: { query?: infer T } } ? Defined<T> : never;
/** A body the document requires; one it makes optional, or undefined; none: nothing, or `{}`. */
type BodyOf<Op> = Op extends { requestBody?: infer B }
  ? [Defined<B>] extends [never]
    ? Record<string, never> | undefined
    : Defined<B> extends { content: infer C }
      ? C[keyof C] | (Op extends { requestBody: unknown } ? never : undefined)
      : never
  : never;
type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : null;
type SuccessStatus = 200 | 201 | 202 | 204;
/** The answer's body on success (a 204 has none: null). */
export type ApiAnswer<P extends string, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? { [S in keyof R & SuccessStatus]: JsonOf<R[S]> }[keyof R & SuccessStatus]
    : never;
/** The request body the document describes for the call. */
export type ApiBody<P extends string, M extends Method> = BodyOf<Operation<P, M>>;
/** The query parameters the document describes for the call. */
export type ApiQuery<P extends string, M extends Method> = QueryOf<Operation<P, M>>;

type CallOptions<P extends string, M extends Method> = Omit<RequestOptions, 'method' | 'body' | 'query' | 'path'> &
  ([PathParamsOf<Operation<P, M>>] extends [never] ? { path?: never } : { path: PathParamsOf<Operation<P, M>> }) &
  ([ApiQuery<P, M>] extends [never] ? { query?: never } : { query?: ApiQuery<P, M> });
/** The options argument: required when the path has parameters. */
type OptionsArg<P extends string, M extends Method> = [PathParamsOf<Operation<P, M>>] extends [never]
  ? [options?: CallOptions<P, M>]
  : [options: CallOptions<P, M>];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Values of the path template's `{name}` segments (encoded here). */
  path?: Record<string, string | number>;
  query?: Record<string, QueryValue>;
  /** Secured calls carry the bearer token and cookies, and trip the 401 interceptor. */
  secured?: boolean;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  data: T;
  /** X-Total-Count of paginated lists, when the server sent one. */
  total: number | null;
  /** X-Total-Count-Capped: the total is a floor ("1 000+"), not a count (a search, decision 018). */
  totalCapped: boolean;
  status: number;
}

/** `/api` + the path with its `{name}` segments filled (encoded) + the query without empty values. */
export function buildApiUrl(
  path: string,
  query?: Record<string, QueryValue>,
  pathParams?: Record<string, string | number>,
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = pathParams?.[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const qs = search.toString();
  return `${API_BASE}${filled}${qs ? `?${qs}` : ''}`;
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
}

const STATUS_MESSAGES: Record<number, string> = {
  401: 'Please sign in to continue.',
  403: 'You do not have permission to do that.',
  404: 'We could not find what you were looking for.',
  429: 'Too many attempts. Please wait a moment and try again.',
};

async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    /* not JSON: fall back to the status */
  }
  if (isErrorBody(body)) {
    const authCode = (body as { code?: unknown }).code;
    return new ApiError({
      status: response.status,
      code: body.error.code,
      message: body.error.message,
      ...(body.error.fields ? { fields: body.error.fields } : {}),
      ...(body.requestId ? { requestId: body.requestId } : {}),
      ...(typeof authCode === 'string' ? { authCode } : {}),
    });
  }
  return new ApiError({
    status: response.status,
    // A 401 without our body (a proxy in between) still means the session is not accepted.
    code: response.status === 401 ? UNAUTHENTICATED : `http_${response.status}`,
    message: STATUS_MESSAGES[response.status] ?? 'Something went wrong on our side. Please try again.',
  });
}

/**
 * What the client sends requests with: the browser's fetch, or, in the server's render, a fetch
 * that answers from the API in the same process (entry-server.tsx, decision 030).
 */
let sendRequest: typeof fetch = (input, init) => fetch(input, init);

/** Sets what requests are sent with; only the server's render entry calls it. */
export function setApiFetch(send: typeof fetch): void {
  sendRequest = send;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const { method = 'GET', body, path: pathParams, query, secured = false, signal } = options;
  const headers = new Headers({ Accept: 'application/json' });
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm) headers.set('Content-Type', 'application/json');
  if (secured) {
    const token = tokenStorage.get();
    if (token) headers.set('Authorization', `Bearer ${token}`);
  }

  const url = buildApiUrl(path, query, pathParams);
  let response: Response;
  try {
    response = await sendRequest(url, {
      method,
      headers,
      credentials: secured ? 'include' : 'same-origin',
      ...(body !== undefined ? { body: isForm ? (body as FormData) : JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({
      status: 0,
      code: 'network_error',
      message: 'We could not reach SkillHive. Check your connection and try again.',
    });
  }

  if (!response.ok) {
    const error = await toApiError(response);
    if (secured && isUnauthenticated(error)) await handleUnauthorized();
    throw error;
  }

  const totalHeader = response.headers.get(TOTAL_COUNT_HEADER);
  const total =
    totalHeader !== null && totalHeader !== '' && Number.isFinite(Number(totalHeader)) ? Number(totalHeader) : null;
  let data: unknown = null;
  if (response.status !== 204) {
    const text = await response.text();
    if (text) {
      const type = response.headers.get('content-type') ?? '';
      data = type.includes('json') ? JSON.parse(text) : text;
    }
  }
  const totalCapped = response.headers.get(TOTAL_COUNT_CAPPED_HEADER) === 'true';
  return { data: data as T, total, totalCapped, status: response.status };
}

type Options = Omit<RequestOptions, 'method' | 'body'>;
type ListItem<T> = T extends readonly (infer I)[] ? I : never;

/** The one API client of the web app, typed by the OpenAPI document (decision 033). */
export const apiClient = {
  async get<P extends ApiPath<'get'>>(path: P, ...[options]: OptionsArg<P, 'get'>): Promise<ApiAnswer<P, 'get'>> {
    return (await apiRequest<ApiAnswer<P, 'get'>>(path, { ...(options as Options), method: 'GET' })).data;
  },
  /** A paginated list: the array body plus X-Total-Count (and whether that total is a floor). */
  async list<P extends ApiPath<'get'>>(
    path: P,
    ...[options]: OptionsArg<P, 'get'>
  ): Promise<{ items: ListItem<ApiAnswer<P, 'get'>>[]; total: number; totalCapped: boolean }> {
    const { data, total, totalCapped } = await apiRequest<ListItem<ApiAnswer<P, 'get'>>[]>(path, {
      ...(options as Options),
      method: 'GET',
    });
    const items = Array.isArray(data) ? data : [];
    return { items, total: total ?? items.length, totalCapped };
  },
  async post<P extends ApiPath<'post'>>(
    path: P,
    body: ApiBody<P, 'post'>,
    ...[options]: OptionsArg<P, 'post'>
  ): Promise<ApiAnswer<P, 'post'>> {
    return (await apiRequest<ApiAnswer<P, 'post'>>(path, { ...(options as Options), method: 'POST', body })).data;
  },
  async patch<P extends ApiPath<'patch'>>(
    path: P,
    body: ApiBody<P, 'patch'>,
    ...[options]: OptionsArg<P, 'patch'>
  ): Promise<ApiAnswer<P, 'patch'>> {
    return (await apiRequest<ApiAnswer<P, 'patch'>>(path, { ...(options as Options), method: 'PATCH', body })).data;
  },
  async put<P extends ApiPath<'put'>>(
    path: P,
    body: ApiBody<P, 'put'>,
    ...[options]: OptionsArg<P, 'put'>
  ): Promise<ApiAnswer<P, 'put'>> {
    return (await apiRequest<ApiAnswer<P, 'put'>>(path, { ...(options as Options), method: 'PUT', body })).data;
  },
  async delete<P extends ApiPath<'delete'>>(
    path: P,
    ...[options]: OptionsArg<P, 'delete'>
  ): Promise<ApiAnswer<P, 'delete'>> {
    return (await apiRequest<ApiAnswer<P, 'delete'>>(path, { ...(options as Options), method: 'DELETE' })).data;
  },
};
