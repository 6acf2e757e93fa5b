import { describe, expect, it } from 'vitest';
import { NO_ADJUSTMENTS, priceCart, type PriceAdjustment } from './pricing.public.ts';

const line = (id: string, priceCents: number, classId = `class-${id}`) => ({ id, classId, priceCents });

const paidOf = (cart: { lines: { paidCents: number }[] }) => cart.lines.map((l) => l.paidCents);
const offOf = (cart: { lines: { discountCents: number }[] }) => cart.lines.map((l) => l.discountCents);

describe('priceCart', () => {
  it('prices an empty cart at 0', () => {
    expect(priceCart([], [])).toEqual({ lines: [], totalCents: 0 });
    expect(priceCart([], [{ kind: 'fixed', amountCents: 500, classIds: null }])).toEqual({ lines: [], totalCents: 0 });
  });

  it('prices one line at its list price and keeps the fields it came with', () => {
    const cart = priceCart([line('a', 1999)], NO_ADJUSTMENTS);
    expect(cart).toEqual({
      lines: [{ id: 'a', classId: 'class-a', priceCents: 1999, listCents: 1999, discountCents: 0, paidCents: 1999 }],
      totalCents: 1999,
    });
  });

  it('sums many lines to the cent, in cart order', () => {
    const lines = Array.from({ length: 200 }, (_, i) => line(String(i), 1 + i * 37));
    const cart = priceCart(lines, []);
    expect(cart.lines.map((l) => l.id)).toEqual(lines.map((l) => l.id));
    expect(cart.totalCents).toBe(lines.reduce((sum, l) => sum + l.priceCents, 0));
    expect(cart.totalCents).toBe(200 + (37 * 199 * 200) / 2);
  });

  it('rounds a percentage per line, halves up, and the total is the sum of the lines', () => {
    // 15% of 333 = 49.95 → 50; of 10 = 1.5 → 2; of 1 = 0.15 → 0; of 1000 = 150.
    const cart = priceCart(
      [line('a', 333), line('b', 10), line('c', 1), line('d', 1000)],
      [{ kind: 'percent', percent: 15, classIds: null }],
    );
    expect(offOf(cart)).toEqual([50, 2, 0, 150]);
    expect(paidOf(cart)).toEqual([283, 8, 1, 850]);
    expect(cart.totalCents).toBe(283 + 8 + 1 + 850);
    // Not the percentage of the total (1344 × 0.85 = 1142.4): per line, so a line refund is exact.
    expect(cart.totalCents).toBe(1142);
  });

  it('makes every line free at 100% and leaves it unchanged at 0%', () => {
    const lines = [line('a', 1999), line('b', 1)];
    const free = priceCart(lines, [{ kind: 'percent', percent: 100, classIds: null }]);
    expect(paidOf(free)).toEqual([0, 0]);
    expect(offOf(free)).toEqual([1999, 1]);
    expect(free.totalCents).toBe(0);
    expect(priceCart(lines, [{ kind: 'percent', percent: 0, classIds: null }]).totalCents).toBe(2000);
  });

  it('never takes a line below 0 when a fixed discount is larger than it', () => {
    const cart = priceCart([line('a', 300)], [{ kind: 'fixed', amountCents: 1000, classIds: null }]);
    expect(cart.lines[0]).toMatchObject({ listCents: 300, discountCents: 300, paidCents: 0 });
    expect(cart.totalCents).toBe(0);
    // Larger than the whole cart: every line free, the rest dropped, the total 0.
    const two = priceCart([line('a', 300), line('b', 200)], [{ kind: 'fixed', amountCents: 501, classIds: null }]);
    expect(paidOf(two)).toEqual([0, 0]);
    expect(two.totalCents).toBe(0);
  });

  it('shares a fixed discount across lines in proportion, to the cent, ties to the earlier line', () => {
    // 100 ¢ off 300 + 200 + 100: exactly 50 + 33.3 + 16.6 → 50, 33, 17 (largest remainder).
    const cart = priceCart(
      [line('a', 300), line('b', 200), line('c', 100)],
      [{ kind: 'fixed', amountCents: 100, classIds: null }],
    );
    expect(offOf(cart)).toEqual([50, 33, 17]);
    expect(cart.totalCents).toBe(500);
    // 1 ¢ off two equal lines: the earlier one takes it.
    const tie = priceCart([line('a', 100), line('b', 100)], [{ kind: 'fixed', amountCents: 1, classIds: null }]);
    expect(offOf(tie)).toEqual([1, 0]);
  });

  it('applies an adjustment only to the classes it names', () => {
    const lines = [line('a', 1000, 'x'), line('b', 1000, 'y')];
    const percent = priceCart(lines, [{ kind: 'percent', percent: 50, classIds: ['y'] }]);
    expect(paidOf(percent)).toEqual([1000, 500]);
    const fixed = priceCart(lines, [{ kind: 'fixed', amountCents: 5000, classIds: ['x'] }]);
    expect(paidOf(fixed)).toEqual([0, 1000]);
    expect(fixed.totalCents).toBe(1000);
    const none = priceCart(lines, [{ kind: 'percent', percent: 50, classIds: [] }]);
    expect(none.totalCents).toBe(2000);
  });

  it('applies adjustments in order, each to what the lines cost after the ones before', () => {
    const lines = [line('a', 1000)];
    const percentThenFixed: PriceAdjustment[] = [
      { kind: 'percent', percent: 10, classIds: null },
      { kind: 'fixed', amountCents: 100, classIds: null },
    ];
    expect(priceCart(lines, percentThenFixed).totalCents).toBe(800);
    expect(priceCart(lines, [...percentThenFixed].reverse()).totalCents).toBe(810);
  });

  it('keeps every line between 0 and its list price and the total equal to the sum, for random carts', () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let run = 0; run < 500; run++) {
      const lines = Array.from({ length: 1 + random(8) }, (_, i) => line(String(i), random(50_000), `c${random(3)}`));
      const adjustments: PriceAdjustment[] = Array.from({ length: random(3) }, () =>
        random(2) === 0
          ? { kind: 'percent', percent: random(101), classIds: random(2) === 0 ? null : ['c0'] }
          : { kind: 'fixed', amountCents: random(60_000), classIds: random(2) === 0 ? null : ['c1', 'c2'] },
      );
      const cart = priceCart(lines, adjustments);
      expect(priceCart(lines, adjustments)).toEqual(cart);
      for (const priced of cart.lines) {
        expect(Number.isInteger(priced.paidCents)).toBe(true);
        expect(priced.paidCents).toBeGreaterThanOrEqual(0);
        expect(priced.paidCents).toBeLessThanOrEqual(priced.listCents);
        expect(priced.discountCents + priced.paidCents).toBe(priced.listCents);
      }
      expect(cart.totalCents).toBe(cart.lines.reduce((sum, l) => sum + l.paidCents, 0));
    }
  });

  it('refuses amounts that are not whole cents, and percentages outside 0–100', () => {
    expect(() => priceCart([line('a', 10.5)], [])).toThrow(RangeError);
    expect(() => priceCart([line('a', -1)], [])).toThrow(RangeError);
    expect(() => priceCart([line('a', 100)], [{ kind: 'percent', percent: 101, classIds: null }])).toThrow(RangeError);
    expect(() => priceCart([line('a', 100)], [{ kind: 'percent', percent: 12.5, classIds: null }])).toThrow(RangeError);
    expect(() => priceCart([line('a', 100)], [{ kind: 'fixed', amountCents: -5, classIds: null }])).toThrow(RangeError);
  });
});
