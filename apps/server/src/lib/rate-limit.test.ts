import { describe, expect, it } from 'vitest';
import { tryAgainIn } from './rate-limit.ts';

describe('tryAgainIn', () => {
  it('rounds the wait up to whole minutes, so it is never longer than said', () => {
    expect(tryAgainIn(1)).toBe('Please try again in a minute.');
    expect(tryAgainIn(59)).toBe('Please try again in a minute.');
    expect(tryAgainIn(60)).toBe('Please try again in 1 minute.');
    expect(tryAgainIn(61)).toBe('Please try again in 2 minutes.');
    expect(tryAgainIn(900)).toBe('Please try again in 15 minutes.');
  });
});
