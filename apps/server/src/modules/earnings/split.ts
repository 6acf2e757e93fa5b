/**
 * The split of a cart into platform fees and teacher shares (decision 039). Pure, integer cents.
 *
 * - Each line's fee starts from its LIST price at its teacher's rate (basis points). The cart's
 *   fees together are the exact sum of those rational fees rounded half up, and the whole cents go
 *   to the lines by the largest remainder (ties to the earlier line): one rounding per cart, so
 *   no cent is lost or invented across it, and one line's fee never differs from its exact value
 *   by a cent or more.
 * - A teacher's coupon comes out of the teacher's share: the platform keeps its fee on the list
 *   price (never more than the line's gross) and the teacher gets the rest.
 * - A site-wide coupon comes out of the platform's fee: the teacher keeps the share of the list
 *   price (never more than the line's gross, so the platform never pays out more than a line
 *   brought in) and the platform gets the rest.
 * - Every line: gross = fee + share, both ≥ 0.
 */

export interface SplitInput {
  listCents: number;
  /** What the student paid for the line after coupons. */
  grossCents: number;
  basisPoints: number;
  /** Whose coupon took something off this line; null when none did. */
  couponSource: 'teacher' | 'site' | null;
}

export interface Split {
  feeCents: number;
  shareCents: number;
}

/** Whole cents of `exact[i] = numerators[i] / denominator` summing to round-half-up(Σ exact), by the largest remainder. */
export function allocateLargestRemainder(numerators: readonly number[], denominator: number): number[] {
  const floors = numerators.map((n) => Math.floor(n / denominator));
  const total = numerators.reduce((sum, n) => sum + n, 0);
  const target = Math.floor((2 * total + denominator) / (2 * denominator));
  let left = target - floors.reduce((sum, n) => sum + n, 0);
  const order = numerators
    .map((n, i) => ({ i, remainder: n % denominator }))
    .filter((entry) => entry.remainder > 0)
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i] = (floors[i] ?? 0) + 1;
    left -= 1;
  }
  return floors;
}

export function splitCart(lines: readonly SplitInput[]): Split[] {
  for (const line of lines) {
    if (!Number.isSafeInteger(line.listCents) || !Number.isSafeInteger(line.grossCents) || line.grossCents < 0) {
      throw new RangeError('amounts must be whole cents');
    }
    if (!Number.isInteger(line.basisPoints) || line.basisPoints < 0 || line.basisPoints > 10_000) {
      throw new RangeError(`a fee rate is 0–10000 basis points, got ${line.basisPoints}`);
    }
  }
  const listFees = allocateLargestRemainder(
    lines.map((line) => line.listCents * line.basisPoints),
    10_000,
  );
  return lines.map((line, i) => {
    const listFee = listFees[i] ?? 0;
    if (line.couponSource === 'site') {
      const shareCents = Math.min(line.grossCents, Math.max(0, line.listCents - listFee));
      return { feeCents: line.grossCents - shareCents, shareCents };
    }
    const feeCents = Math.min(line.grossCents, listFee);
    return { feeCents, shareCents: line.grossCents - feeCents };
  });
}

/**
 * A share divided across `parts` (a class's sessions): equal whole cents, the remainder one cent
 * each to the first parts, so the parts add up to the share exactly.
 */
export function divideShare(shareCents: number, parts: number): number[] {
  if (parts <= 0) return [];
  const base = Math.floor(shareCents / parts);
  const rest = shareCents - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < rest ? 1 : 0));
}

/** "Jane van Doe" → "J. D."; an empty or unreadable name → "—". Never more than initials. */
export function initialsOf(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/u).filter(Boolean);
  if (words.length === 0) return '—';
  const first = words[0]!;
  const last = words.length > 1 ? words[words.length - 1]! : null;
  const letter = (word: string) => `${Array.from(word)[0]!.toLocaleUpperCase('en-US')}.`;
  return last ? `${letter(first)} ${letter(last)}` : letter(first);
}
