import { describe, expect, it } from 'vitest';
import { AUTH_ENDPOINTS } from '../../plugins/openapi-auth.ts';
import { IDENTITY_ENDPOINTS } from './identity-gate.ts';

/**
 * The identity gate's allow-list (decision 009) and the OpenAPI document's identity endpoints
 * (decision 012) name the same endpoints, so nothing the gate forwards is undocumented and nothing
 * documented is refused by the gate.
 */
const NOT_DOCUMENTED_ON_PURPOSE = new Set([
  // Where better-auth sends the browser after a failed OAuth flow: a page, not an API call.
  'GET /api/auth/error',
  // Providers that answer with a form post (response_mode=form_post) land here; ours redirect (GET).
  'POST /api/auth/callback/{param}',
]);

const normalise = (endpoint: string) => endpoint.replace(/\{[^}]+\}|:[^/]+/g, '{param}');

describe('identity endpoints', () => {
  it('are the same in the gate and in the OpenAPI document', () => {
    const gate = IDENTITY_ENDPOINTS.flatMap((e) => e.methods.map((m) => normalise(`${m} /api/auth/${e.path}`)));
    const documented = AUTH_ENDPOINTS.map(normalise);
    expect(gate.filter((e) => !NOT_DOCUMENTED_ON_PURPOSE.has(e)).sort()).toEqual([...documented].sort());
  });
});
