import { describe, expect, it } from 'vitest';
import { parseCatalogueParams, toSearchParams } from './get-classes.ts';
import { pageWindow } from '../components/pagination.tsx';

describe('catalogue URL state', () => {
  it('round-trips search, category, sort and page through the URL', () => {
    const params = parseCatalogueParams(new URLSearchParams('q=react&category=web-development&sort=price-asc&page=3'));
    expect(params).toEqual({
      q: 'react',
      category: 'web-development',
      sort: 'price-asc',
      page: 3,
      minPrice: null,
      maxPrice: null,
      minRating: null,
    });
    expect(toSearchParams(params).toString()).toBe('q=react&category=web-development&sort=price-asc&page=3');
  });

  it('round-trips the price range and the lowest rating', () => {
    const params = parseCatalogueParams(new URLSearchParams('minPrice=10&maxPrice=49.5&minRating=4'));
    expect(params).toMatchObject({ minPrice: 10, maxPrice: 49.5, minRating: 4 });
    expect(toSearchParams(params).toString()).toBe('minPrice=10&maxPrice=49.5&minRating=4');
  });

  it('ranks a search by relevance unless another order is chosen, and never ranks without a query', () => {
    expect(parseCatalogueParams(new URLSearchParams('q=water')).sort).toBe('relevance');
    expect(toSearchParams(parseCatalogueParams(new URLSearchParams('q=water'))).toString()).toBe('q=water');
    expect(parseCatalogueParams(new URLSearchParams('q=water&sort=newest')).sort).toBe('newest');
    expect(toSearchParams(parseCatalogueParams(new URLSearchParams('q=water&sort=newest'))).toString()).toBe(
      'q=water&sort=newest',
    );
    expect(parseCatalogueParams(new URLSearchParams('sort=relevance')).sort).toBe('newest');
  });

  it('falls back to defaults for unknown or malformed values and omits defaults when writing', () => {
    const params = parseCatalogueParams(
      new URLSearchParams('category=cooking&sort=random&page=-2&minPrice=abc&maxPrice=-1&minRating=9'),
    );
    expect(params).toEqual({
      q: '',
      category: '',
      sort: 'newest',
      page: 1,
      minPrice: null,
      maxPrice: null,
      minRating: null,
    });
    expect(toSearchParams(params).toString()).toBe('');
    // A maximum below the minimum is dropped rather than sent (the API would refuse it).
    expect(parseCatalogueParams(new URLSearchParams('minPrice=50&maxPrice=10'))).toMatchObject({
      minPrice: 50,
      maxPrice: null,
    });
  });
});

describe('pageWindow', () => {
  it('shows the first, last and neighbouring pages with gaps', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
  });

  it('names no last page when the total is a floor ("1,000+ classes")', () => {
    expect(pageWindow(1, 84, true)).toEqual([1, 2, 'gap']);
    expect(pageWindow(10, 84, true)).toEqual([1, 'gap', 9, 10, 11, 'gap']);
    expect(pageWindow(84, 84, true)).toEqual([1, 'gap', 83, 84, 85, 'gap']);
  });
});
