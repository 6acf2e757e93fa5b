import { describe, expect, it } from 'vitest';
import { countOf } from './plural.ts';

describe('countOf', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    expect(countOf(1, 'class', 'classes')).toBe('1 class');
    expect(countOf(2, 'class', 'classes')).toBe('2 classes');
    expect(countOf(0, 'user')).toBe('0 users');
    expect(countOf(1, 'request')).toBe('1 request');
    expect(countOf(12_345, 'review')).toBe('12,345 reviews');
  });
});
