import { describe, expect, it } from 'vitest';
import { parseCatalogueParams, toSearchParams } from './get-classes.ts';
import { pageWindow } from '../components/pagination.tsx';

describe('catalogue URL state', () => {
  it('round-trips search, category, sort and page through the URL', () => {
    const params = parseCatalogueParams(new URLSearchParams('q=react&category=web-development&sort=price-asc&page=3'));
    expect(params).toEqual({ q: 'react', category: 'web-development', sort: 'price-asc', page: 3 });
    expect(toSearchParams(params).toString()).toBe('q=react&category=web-development&sort=price-asc&page=3');
  });

  it('falls back to defaults for unknown or malformed values and omits defaults when writing', () => {
    const params = parseCatalogueParams(new URLSearchParams('category=cooking&sort=random&page=-2'));
    expect(params).toEqual({ q: '', category: '', sort: 'newest', page: 1 });
    expect(toSearchParams(params).toString()).toBe('');
  });
});

describe('pageWindow', () => {
  it('shows the first, last and neighbouring pages with gaps', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
  });
});
