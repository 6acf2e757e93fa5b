import { describe, expect, it } from 'vitest';
import { returnPathFrom } from './safe-return-path.ts';

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
});
