import { describe, expect, it } from 'vitest';
import { findForeignCallback, isNestedDeeperThan, resolveIdentityRoute } from './identity-gate.ts';

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

describe('findForeignCallback', () => {
  const at = (query: string) => new URL(`/api/auth/verify-email?token=x&${query}`, PUBLIC_URL);

  it('names the first callback field, in the query or the body, that would leave this site', () => {
    expect(findForeignCallback(at('callbackURL=%2F.%2F%2Fevil.example'), undefined, PUBLIC_URL)).toBe('callbackURL');
    expect(findForeignCallback(at('redirectTo=/%252e//evil.example'), undefined, PUBLIC_URL)).toBe('redirectTo');
    expect(findForeignCallback(at('callbackURL=/a&callbackURL=/b'), undefined, PUBLIC_URL)).toBe('callbackURL');
    expect(findForeignCallback(at(''), { errorCallbackURL: '/..//evil.example' }, PUBLIC_URL)).toBe('errorCallbackURL');
    expect(findForeignCallback(at(''), { newUserCallbackURL: ['/'] }, PUBLIC_URL)).toBe('newUserCallbackURL');
  });

  it('lets paths on this site and its own absolute address through', () => {
    expect(findForeignCallback(at('callbackURL=%2Femail-verified'), undefined, PUBLIC_URL)).toBeNull();
    expect(
      findForeignCallback(at(''), { callbackURL: `${PUBLIC_URL}/dashboard`, errorCallbackURL: '/login' }, PUBLIC_URL),
    ).toBeNull();
    expect(findForeignCallback(at(''), [1, 2], PUBLIC_URL)).toBeNull();
  });
});
