import { describe, expect, it } from 'vitest';
import { catalogueRequest, parseCatalogueParams, toSearchParams } from './get-classes.ts';
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
      startsAfter: null,
      days: [],
      times: [],
      tz: null,
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
      startsAfter: null,
      days: [],
      times: [],
      tz: null,
    });
    expect(toSearchParams(params).toString()).toBe('');
    // A maximum below the minimum is dropped rather than sent (the API would refuse it).
    expect(parseCatalogueParams(new URLSearchParams('minPrice=50&maxPrice=10'))).toMatchObject({
      minPrice: 50,
      maxPrice: null,
    });
  });
});

describe('the schedule filter in the URL (decision 053)', () => {
  it('round-trips the start date, days and times with the zone they are read in, in canonical order', () => {
    const params = parseCatalogueParams(
      new URLSearchParams('startsAfter=2027-01-04&days=wed,mon&times=evening,morning&tz=Asia/Kolkata'),
    );
    expect(params).toMatchObject({
      startsAfter: '2027-01-04',
      days: ['mon', 'wed'],
      times: ['morning', 'evening'],
      tz: 'Asia/Kolkata',
    });
    expect(toSearchParams(params).toString()).toBe(
      'startsAfter=2027-01-04&days=mon%2Cwed&times=morning%2Cevening&tz=Asia%2FKolkata',
    );
    expect(catalogueRequest(params).query).toMatchObject({
      startsAfter: '2027-01-04',
      days: 'mon,wed',
      times: 'morning,evening',
      tz: 'Asia/Kolkata',
    });
  });

  it('drops what it cannot read, and sends no zone without a schedule filter (the shared cache key)', () => {
    const params = parseCatalogueParams(
      new URLSearchParams('startsAfter=2027-02-30&days=funday&times=night&tz=Mars/Olympus'),
    );
    expect(params).toMatchObject({ startsAfter: null, days: [], times: [], tz: null });
    const zoneOnly = parseCatalogueParams(new URLSearchParams('tz=Europe/Berlin'));
    expect(toSearchParams(zoneOnly).toString()).toBe('');
    expect(catalogueRequest(zoneOnly).query).not.toHaveProperty('tz');
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
