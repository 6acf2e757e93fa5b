import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import type { RealServer } from './real-server.ts';

/**
 * The network of the jsdom "browser" the web tests run in, pointed at a real server
 * (real-server.global-setup.ts). jsdom has no `fetch`; Node's does the requests, and this adds
 * what a browser would do around it, nothing more: relative URLs are resolved against the page,
 * cookies are kept (better-auth's session cookie) and sent back, and a cross-origin-checked
 * request carries the page's Origin. Every answer is the server's own.
 */

/** The cookies of one browser (or one device): name → value, as Set-Cookie left them. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', raw = ''] = attribute.split('=');
        const k = key.trim().toLowerCase();
        if (k === 'max-age') return Number(raw) <= 0;
        if (k === 'expires') return Date.parse(raw) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string | null {
    if (this.cookies.size === 0) return null;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  clear(): void {
    this.cookies.clear();
  }
}

/** Node's own fetch, captured before any test replaces the global. */
const nodeFetch = globalThis.fetch.bind(globalThis);

/** A request through Node's fetch as a page of `origin` sends it: its cookies, and Origin on writes. */
export async function fetchAsPage(
  jar: CookieJar,
  origin: string,
  input: RequestInfo | URL,
  init: RequestInit = {},
): Promise<{ url: URL; method: string; response: Response }> {
  const isRequest = typeof input === 'object' && 'url' in input && !(input instanceof URL);
  const url = new URL(isRequest ? input.url : String(input), `${origin}/`);
  // Loopback only: the page never talks to anything but the server it was loaded from.
  if (url.origin !== origin) throw new TypeError(`Failed to fetch: ${url.href} is not ${origin}`);
  const method = (init.method ?? (isRequest ? input.method : 'GET')).toUpperCase();
  const headers = new Headers(init.headers ?? (isRequest ? input.headers : undefined));
  const cookie = init.credentials === 'omit' ? null : jar.header();
  if (cookie) headers.set('cookie', cookie);
  if (method !== 'GET' && method !== 'HEAD') headers.set('origin', origin);
  const response = await nodeFetch(isRequest ? input : url, { ...init, method, headers });
  jar.store(response);
  return { url, method, response };
}

export interface Browser {
  /** The server the page was loaded from (window.location's origin). */
  readonly server: RealServer;
  /** Every request the page sent since the test began: "GET /api/enrolled/…". */
  readonly requests: string[];
  /**
   * A slow network for what `matches`: the server answers at once, the page receives the answer
   * when the returned function is called.
   */
  hold(matches: (method: string, path: string) => boolean): () => void;
  /** Loads the page from another server: a new origin, no cookies. */
  visit(server: RealServer): void;
  /** A request of this browser (its cookies and origin), e.g. signing in from another tab. */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Signs in in this browser (another tab, or before the page loads); fails the test unless the server says 200. */
  signIn(account: { email: string; password: string }): Promise<void>;
}

interface JsdomHandle {
  reconfigure(settings: { url: string }): void;
}

/**
 * Points this test file's jsdom page at the real server: window.location is the server's base URL
 * and `fetch` is the browser network above. Each test starts with no cookies and nothing held.
 */
export function browserOnRealServer(which: 'realServer' | 'stripeServer' = 'realServer'): Browser {
  const jar = new CookieJar();
  const requests: string[] = [];
  let holds: { matches: (method: string, path: string) => boolean; released: Promise<void> }[] = [];
  let server: RealServer | undefined;
  let previousFetch: typeof fetch | undefined;

  const visit = (next: RealServer) => {
    server = next;
    jar.clear();
    (globalThis as unknown as { jsdom: JsdomHandle }).jsdom.reconfigure({ url: `${next.baseUrl}/` });
  };

  const browserFetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const { url, method, response } = await fetchAsPage(jar, window.location.origin, input, init);
    requests.push(`${method} ${url.pathname}`);
    const held = holds.filter((hold) => hold.matches(method, url.pathname));
    if (held.length > 0) {
      const signal = init.signal;
      await Promise.race([
        Promise.all(held.map((hold) => hold.released)),
        new Promise<never>((_, reject) => {
          if (signal?.aborted) reject(signal.reason);
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
      ]);
    }
    return response;
  };

  beforeAll(() => {
    visit(inject(which));
    previousFetch = globalThis.fetch;
    globalThis.fetch = browserFetch as typeof fetch;
  });
  afterAll(() => {
    if (previousFetch) globalThis.fetch = previousFetch;
  });
  beforeEach(() => {
    visit(inject(which));
    requests.length = 0;
    holds = [];
  });

  const browser: Browser = {
    get server() {
      if (!server) throw new Error('the browser is set up in beforeAll');
      return server;
    },
    requests,
    hold(matches) {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.push({ matches, released });
      return release;
    },
    visit,
    async request(method, path, body) {
      const response = await browserFetch(path, {
        method,
        credentials: 'include',
        ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as never };
    },
    async signIn({ email, password }) {
      const { status } = await browser.request('POST', '/api/auth/sign-in/email', { email, password });
      if (status !== 200) throw new Error(`signing in as ${email} answered ${status}`);
    },
  };
  return browser;
}
