import { describe, expect, it } from 'vitest';
import { isNestedDeeperThan, resolveIdentityRoute } from './identity-gate.ts';

const PUBLIC_URL = 'https://skillhive.example';

describe('resolveIdentityRoute', () => {
  it.each([
    ['/api/auth/sign-in/email', 'POST', 'sign-in/email', '/api/auth/sign-in/email'],
    ['/api/auth/./sign-in/email', 'POST', 'sign-in/email', '/api/auth/sign-in/email'],
    ['/api/auth/x/%2E%2e/sign-up/email?x=1', 'POST', 'sign-up/email', '/api/auth/sign-up/email?x=1'],
    ['http://evil.example/api/auth/get-session', 'GET', 'get-session', '/api/auth/get-session'],
    ['/api/auth/callback/oidc?code=a&state=b', 'GET', 'callback/:provider', '/api/auth/callback/oidc?code=a&state=b'],
  ])('%s %s is %s, forwarded to our origin', (target, method, path, forwarded) => {
    const route = resolveIdentityRoute(target, method, PUBLIC_URL);
    expect(route?.endpoint.path).toBe(path);
    expect(route?.url.toString()).toBe(`${PUBLIC_URL}${forwarded}`);
  });

  it.each([
    ['/api/auth//sign-in/email', 'POST'],
    ['/api/auth/sign-in/email/', 'POST'],
    ['/api/auth/Sign-In/email', 'POST'],
    ['/api/auth/sign-in%2Femail', 'POST'],
    ['/api/auth/sign-in/email', 'GET'],
    ['/api/auth/sign-in/email', 'HEAD'],
    ['/api/auth/list-accounts', 'GET'],
    ['/api/auth/callback/a%2Fb', 'GET'],
    ['/api/auth/x/../../users/me', 'GET'],
    ['/api/auth', 'GET'],
  ])('%s %s is not forwarded', (target, method) => {
    expect(resolveIdentityRoute(target, method, PUBLIC_URL)).toBeNull();
  });
});

describe('isNestedDeeperThan', () => {
  const nest = (depth: number): unknown => (depth === 0 ? 1 : [nest(depth - 1)]);
  it('measures objects and arrays alike, without recursion', () => {
    expect(isNestedDeeperThan({ a: 1, b: 'x' }, 1)).toBe(false);
    expect(isNestedDeeperThan(nest(8), 8)).toBe(false);
    expect(isNestedDeeperThan(nest(9), 8)).toBe(true);
    expect(isNestedDeeperThan({ a: { b: nest(7) } }, 8)).toBe(true);
    expect(isNestedDeeperThan(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 8)).toBe(true);
  });
});
