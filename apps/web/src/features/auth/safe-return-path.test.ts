import { describe, expect, it } from 'vitest';
import {
  forgetReturnAfterVerify,
  rememberReturnAfterVerify,
  returnAfterVerify,
  returnPathFrom,
} from './safe-return-path.ts';

describe('returnPathFrom', () => {
  it('returns to the in-app page the visitor came from', () => {
    expect(returnPathFrom({ from: { pathname: '/teach', search: '?a=1', hash: '#x' } })).toBe('/teach?a=1#x');
  });
  it('falls back to / for missing, foreign or auth-page origins', () => {
    expect(returnPathFrom(null)).toBe('/');
    expect(returnPathFrom({ from: { pathname: '//evil.test/x' } })).toBe('/');
    expect(returnPathFrom({ from: { pathname: 'https://evil.test' } })).toBe('/');
    expect(returnPathFrom({ from: { pathname: '/login' } })).toBe('/');
  });
  it('falls back to / for paths a URL parser would turn into another origin (the shared callback rule)', () => {
    for (const pathname of ['/.//evil.test', '/..//evil.test', '/%2e//evil.test', '/\\evil.test', '/a//b']) {
      expect(returnPathFrom({ from: { pathname } })).toBe('/');
    }
    expect(returnPathFrom({ from: { pathname: '/teach', search: '?next=\\evil.test' } })).toBe('/');
  });
});

describe('the page to continue on after verifying the address', () => {
  it('keeps an in-app page and gives it back', () => {
    rememberReturnAfterVerify('/dashboard/classDetails/abc?x=1');
    expect(returnAfterVerify()).toBe('/dashboard/classDetails/abc?x=1');
    forgetReturnAfterVerify();
    expect(returnAfterVerify()).toBeNull();
  });
  it('keeps nothing for home, another origin or an auth page', () => {
    for (const path of ['/', '//evil.test/x', 'https://evil.test', '/login?x=1', '/\\evil.test', '/.//evil.test']) {
      rememberReturnAfterVerify(path);
      expect(returnAfterVerify()).toBeNull();
    }
  });
  it('ignores a tampered stored value', () => {
    window.localStorage.setItem('skillhive-return-after-verify', '//evil.test');
    expect(returnAfterVerify()).toBeNull();
  });
});
