import type { DehydratedState } from '@tanstack/react-query';
import type { HydrationState } from 'react-router';

/**
 * What a server-rendered page hands the browser (decision 030): the router's loader data and the
 * query cache the render read from, so the browser's first render is the server's, with no second
 * render and no request repeated. It travels as a JSON data block, which the browser never runs:
 * the CSP needs no inline script, nonce or hash for it (plugins/security.ts).
 */
export interface ServerState {
  router: Pick<HydrationState, 'loaderData'>;
  queries: DehydratedState;
}

/** The id of the `<script type="application/json">` element that carries the state. */
export const SERVER_STATE_ID = 'skillhive-state';

/**
 * JSON safe inside a `<script>` element: `<` is escaped, so no `</script>` or `<!--` in the data
 * (a class title, a review) can end the element; U+2028/9 for old parsers.
 */
export function serializeServerState(state: ServerState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The state a server-rendered page carries, or null for a page the browser renders (the dashboard). */
export function readServerState(doc: Document): ServerState | null {
  const element = doc.getElementById(SERVER_STATE_ID);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as ServerState;
  } catch {
    return null;
  }
}
