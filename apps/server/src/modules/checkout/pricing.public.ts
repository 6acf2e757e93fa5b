/**
 * The one pricing function (decision 019): every total of the checkout — the intent's
 * amount, the fulfilment's to-the-cent check, the test gateway's last check before a charge — is
 * `priceCart(lines, adjustments).totalCents`, so they can never disagree. Pure, integer cents,
 * no I/O: the same lines and adjustments always give the same answer.
 *
 * Rounding, so a refund of one line can give back exactly what that line paid:
 * - every discount is worked out per line, in whole cents; the total is the sum of the lines;
 * - a percentage takes `round(paid × percent / 100)` off each line it applies to, halves rounded
 *   up (in the student's favour): 15% of 333 ¢ is 49.95 → 50 ¢;
 * - a fixed amount is taken once per cart from the lines it applies to, in proportion to what each
 *   still costs (whole cents by the largest remainder, ties to the earlier line); an amount larger
 *   than those lines makes them free and the rest is dropped;
 * - adjustments apply in the order given, each to what the lines cost after the ones before;
 * - no line is ever below 0 ¢, so no total is either.
 */

/** What a cart line needs to be priced: its class (what a coupon may be limited to) and list price. */
export interface PriceableLine {
  classId: string;
  /** The price of the line when it was put in the cart (enrollments.price_cents), integer cents. */
  priceCents: number;
}

/**
 * A change to the price of some lines: a coupon is one (decision 019); no coupon is `[]`. `classIds: null` applies to every line, otherwise only to lines of those classes.
 */
export type PriceAdjustment =
  | { kind: 'percent'; percent: number; classIds: readonly string[] | null }
  | { kind: 'fixed'; amountCents: number; classIds: readonly string[] | null };

export type PricedLine<L extends PriceableLine> = L & {
  /** The line's price before any adjustment (its `priceCents`). */
  listCents: number;
  /** What the adjustments took off, in total. */
  discountCents: number;
  /** What the student pays for this line: listCents − discountCents, never below 0. */
  paidCents: number;
};

export interface PricedCart<L extends PriceableLine> {
  lines: PricedLine<L>[];
  /** The sum of the lines' paidCents: the amount charged. */
  totalCents: number;
}

/** No adjustment: the cart at its list prices. */
export const NO_ADJUSTMENTS: readonly PriceAdjustment[] = Object.freeze([]);

function assertCents(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} must be whole cents ≥ 0, got ${value}`);
}

function appliesTo(adjustment: PriceAdjustment, line: PriceableLine): boolean {
  return adjustment.classIds === null || adjustment.classIds.includes(line.classId);
}

/** Cents off each line for one percentage: per line, halves rounded up. */
function percentOff(paid: readonly number[], eligible: readonly boolean[], percent: number): number[] {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) {
    throw new RangeError(`a percentage must be a whole number from 0 to 100, got ${percent}`);
  }
  // Integer arithmetic: (paid × percent + 50) div 100 is paid × percent / 100 with halves rounded up.
  return paid.map((cents, i) => (eligible[i] ? Math.floor((cents * percent + 50) / 100) : 0));
}

/** Cents off each line for one fixed amount: shared in proportion, by the largest remainder. */
function fixedOff(paid: readonly number[], eligible: readonly boolean[], amountCents: number): number[] {
  assertCents(amountCents, 'a fixed discount');
  const base = paid.reduce((sum, cents, i) => (eligible[i] ? sum + cents : sum), 0);
  if (amountCents >= base) return paid.map((cents, i) => (eligible[i] ? cents : 0));
  const off = paid.map((cents, i) => (eligible[i] ? Math.floor((cents * amountCents) / base) : 0));
  let left = amountCents - off.reduce((sum, cents) => sum + cents, 0);
  // The cents the floors dropped go to the largest remainders; a stable sort keeps ties in cart order.
  const order = paid
    .map((cents, i) => ({ i, remainder: eligible[i] ? (cents * amountCents) % base : -1 }))
    .filter((entry) => entry.remainder > 0)
    .sort((a, b) => b.remainder - a.remainder);
  for (const { i } of order) {
    if (left === 0) break;
    off[i] = (off[i] ?? 0) + 1;
    left -= 1;
  }
  return off;
}

/**
 * Prices a cart: each line with its list price, its discount and what is paid for it, and the
 * total. Lines keep their order and every field they came with.
 */
export function priceCart<L extends PriceableLine>(
  lines: readonly L[],
  adjustments: readonly PriceAdjustment[] = NO_ADJUSTMENTS,
): PricedCart<L> {
  for (const line of lines) assertCents(line.priceCents, 'a line price');
  const paid = lines.map((line) => line.priceCents);
  for (const adjustment of adjustments) {
    const eligible = lines.map((line) => appliesTo(adjustment, line));
    const off =
      adjustment.kind === 'percent'
        ? percentOff(paid, eligible, adjustment.percent)
        : fixedOff(paid, eligible, adjustment.amountCents);
    for (let i = 0; i < paid.length; i++) paid[i] = Math.max(0, (paid[i] ?? 0) - (off[i] ?? 0));
  }
  const priced = lines.map((line, i) => {
    const paidCents = paid[i] ?? 0;
    return { ...line, listCents: line.priceCents, discountCents: line.priceCents - paidCents, paidCents };
  });
  return { lines: priced, totalCents: priced.reduce((sum, line) => sum + line.paidCents, 0) };
}
