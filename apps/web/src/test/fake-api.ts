/**
 * A tiny in-process HTTP server for web unit tests: a `fetch` implementation that answers from
 * a route table, so the app's own modules (API client, query factories, auth provider, better-auth's
 * browser client) run unchanged and only the network boundary is replaced. Answers follow the
 * server's contract (DESIGN §3): JSON bodies, `{error:{code,message},requestId}` on failure,
 * `X-Total-Count` on lists.
 */

export interface FakeRequest {
  method: string;
  /** Path without the query string, e.g. `/api/enrolled/a%40b.test`. */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** The parsed JSON body, or undefined. */
  body: unknown;
  /** What a path pattern's named groups captured (decoded). */
  params: Record<string, string>;
}

type Handler = (request: FakeRequest) => Response | Promise<Response>;

interface Route {
  method: string;
  pattern: RegExp;
  handle: Handler;
}

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
}

/** The server's error body. */
export function apiError(status: number, code: string, message: string): Response {
  return json({ error: { code, message }, requestId: 'test' }, { status });
}

/** A paginated list: array body plus X-Total-Count. */
export function list(items: unknown[], total = items.length): Response {
  return json(items, { headers: { 'x-total-count': String(total) } });
}

/** `/api/enrolled/:email` → a pattern with a named group per `:param`. */
function compile(path: string): RegExp {
  const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '(?<$1>[^/]+)');
  return new RegExp(`^${source}$`);
}

export interface FakeApi {
  /** Adds a route; a later route for the same method and path wins. */
  on(method: string, path: string, handle: Handler): FakeApi;
  fetch: typeof fetch;
  /** Every request received, in order ("GET /api/…"). */
  calls: string[];
}

export function createFakeApi(): FakeApi {
  const routes: Route[] = [];
  const calls: string[] = [];

  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const isRequest = typeof input === 'object' && 'url' in input && !(input instanceof URL);
    const url = new URL(isRequest ? input.url : String(input), window.location.origin);
    const method = (init.method ?? (isRequest ? input.method : 'GET')).toUpperCase();
    const headers = new Headers(init.headers ?? (isRequest ? input.headers : undefined));
    const raw = init.body ?? (isRequest && input.body ? await input.text() : undefined);
    let body: unknown;
    if (typeof raw === 'string' && raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    calls.push(`${method} ${url.pathname}`);
    for (const route of routes) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      const params = Object.fromEntries(
        Object.entries(match.groups ?? {}).map(([key, value]) => [key, decodeURIComponent(value)]),
      );
      return route.handle({ method, path: url.pathname, query: url.searchParams, headers, body, params });
    }
    return apiError(404, 'not_found', `No fake route for ${method} ${url.pathname}`);
  };

  const api: FakeApi = {
    on(method, path, handle) {
      routes.unshift({ method: method.toUpperCase(), pattern: compile(path), handle });
      return api;
    },
    fetch: fetchImpl as typeof fetch,
    calls,
  };
  return api;
}

export interface FakeUser {
  id: string;
  email: string;
  name: string;
  emailVerified?: boolean;
}

/**
 * A browser already signed in as `user`: better-auth's session, the token of POST /api/jwt and
 * the role flags (a student). Secured calls carry `Bearer jwt-<user.id>`.
 */
export function serveSignedIn(api: FakeApi, user: FakeUser): FakeApi {
  return api
    .on('GET', '/api/auth/get-session', () =>
      json({
        session: { id: `session-${user.id}` },
        user: {
          id: user.id,
          email: user.email,
          name: user.name,
          image: null,
          emailVerified: user.emailVerified ?? true,
        },
      }),
    )
    .on('POST', '/api/jwt', () => json({ token: `jwt-${user.id}` }))
    .on('GET', '/api/users/admin/:email', () => json({ admin: false }))
    .on('GET', '/api/users/teacher/:email', () => json({ teacher: false }));
}
