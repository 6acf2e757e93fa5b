import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The web app's server entry (apps/web/src/entry-server.tsx, built by `npm run build` into
 * apps/web/dist-ssr): React Router's static handler over the app's route table (decision 030).
 * Declared here by shape: the server does not compile the web app's sources.
 */
export interface ServerRenderer {
  /** Whether `pathname` is a public page the server renders (the route manifest's). */
  rendersOnServer(pathname: string): boolean;
  /** The page as a whole document: `template` (its index.html) with the page's markup and state. */
  render(input: {
    url: string;
    template: string;
    headers: Record<string, string>;
    fetch: (input: string, init: RequestInit) => Promise<Response>;
  }): Promise<string | null>;
}

function isServerRenderer(value: unknown): value is ServerRenderer {
  if (typeof value !== 'object' || value === null) return false;
  const module = value as Partial<Record<keyof ServerRenderer, unknown>>;
  return typeof module.rendersOnServer === 'function' && typeof module.render === 'function';
}

/** The built server entry, or null when the web app was not built with it (pages then render in the browser). */
export async function loadServerRenderer(entry: string, log: FastifyInstance['log']): Promise<ServerRenderer | null> {
  if (!existsSync(entry)) {
    log.warn(`web app's server entry not built (${entry} missing): public pages render in the browser`);
    return null;
  }
  const module: unknown = await import(pathToFileURL(entry).href);
  if (!isServerRenderer(module)) throw new Error(`${entry} does not export rendersOnServer and render`);
  return module;
}

/** The visitor's headers a page's reads depend on: the session cookie, nothing else. */
export function forwardedHeaders(request: FastifyRequest): Record<string, string> {
  const cookie = request.headers.cookie;
  return cookie ? { cookie } : {};
}

/**
 * A fetch the render's API reads go through: answered by this same app in process (Fastify's
 * inject, every hook and guard of the route included), never over the network. The reads carry
 * the visitor's cookie and address, as the browser's own would.
 */
export function inProcessFetch(app: FastifyInstance, request: FastifyRequest) {
  const visitor = forwardedHeaders(request);
  return async (url: string, init: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = { ...visitor };
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const method = (init.method ?? 'GET') as 'GET';
    const answer = await app.inject({
      method,
      url,
      headers,
      remoteAddress: request.ip,
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), {
      status: answer.statusCode,
      headers: responseHeaders,
    });
  };
}
