import { describe, expect, it } from 'vitest';
import { allocateLargestRemainder, divideShare, initialsOf, splitCart } from './split.ts';

describe('splitCart (decision 039)', () => {
  it('takes the rate of the list price, fee + share = gross on every line', () => {
    expect(splitCart([{ listCents: 10_000, grossCents: 10_000, basisPoints: 2000, couponSource: null }])).toEqual([
      { feeCents: 2000, shareCents: 8000 },
    ]);
  });

  it('rounds once per cart: three lines of 333 ¢ at 20 % pay 200 ¢ of fees, not 3 × 67', () => {
    const lines = Array.from({ length: 3 }, () => ({
      listCents: 333,
      grossCents: 333,
      basisPoints: 2000,
      couponSource: null,
    }));
    const split = splitCart(lines);
    expect(split.map((s) => s.feeCents)).toEqual([67, 67, 66]);
    expect(split.reduce((sum, s) => sum + s.feeCents, 0)).toBe(200);
  });

  it("a teacher's coupon comes out of the share, a site coupon out of the fee", () => {
    const [teacher] = splitCart([{ listCents: 10_000, grossCents: 7000, basisPoints: 2000, couponSource: 'teacher' }]);
    expect(teacher).toEqual({ feeCents: 2000, shareCents: 5000 });
    const [site] = splitCart([{ listCents: 10_000, grossCents: 9000, basisPoints: 2000, couponSource: 'site' }]);
    expect(site).toEqual({ feeCents: 1000, shareCents: 8000 });
    // A site coupon larger than the fee: the platform never pays out more than the line brought in.
    const [deep] = splitCart([{ listCents: 10_000, grossCents: 5000, basisPoints: 2000, couponSource: 'site' }]);
    expect(deep).toEqual({ feeCents: 0, shareCents: 5000 });
    const [free] = splitCart([{ listCents: 10_000, grossCents: 0, basisPoints: 2000, couponSource: 'teacher' }]);
    expect(free).toEqual({ feeCents: 0, shareCents: 0 });
  });

  it('never loses or invents a cent over random carts', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let run = 0; run < 500; run++) {
      const lines = Array.from({ length: 1 + (next() % 6) }, () => {
        const listCents = 1 + (next() % 50_000);
        const source = ([null, 'teacher', 'site'] as const)[next() % 3]!;
        const grossCents = source ? next() % (listCents + 1) : listCents;
        return { listCents, grossCents, basisPoints: next() % 10_001, couponSource: source };
      });
      const split = splitCart(lines);
      split.forEach((s, i) => {
        expect(s.feeCents + s.shareCents).toBe(lines[i]!.grossCents);
        expect(s.feeCents).toBeGreaterThanOrEqual(0);
        expect(s.shareCents).toBeGreaterThanOrEqual(0);
      });
    }
  });

  it('allocates whole cents summing to the rounded exact total', () => {
    expect(allocateLargestRemainder([5, 5, 5], 10)).toEqual([1, 1, 0]);
    expect(allocateLargestRemainder([4, 4], 10)).toEqual([1, 0]);
    expect(allocateLargestRemainder([], 10)).toEqual([]);
  });
});

describe('divideShare', () => {
  it('gives the remainder to the first sessions', () => {
    expect(divideShare(1000, 3)).toEqual([334, 333, 333]);
    expect(divideShare(2, 3)).toEqual([1, 1, 0]);
    expect(divideShare(5, 0)).toEqual([]);
  });
});

describe('initialsOf', () => {
  it('keeps initials only', () => {
    expect(initialsOf('Jane van Doe')).toBe('J. D.');
    expect(initialsOf('  ada ')).toBe('A.');
    expect(initialsOf('')).toBe('—');
    expect(initialsOf('Émile Zola')).toBe('É. Z.');
  });
});
