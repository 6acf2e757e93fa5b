/** Money is integer cents everywhere inside; the API speaks decimal numbers as spec §3 does. */

/** 12.5 → 1250. Rounds to the nearest cent so 0.1 + 0.2 style inputs land on whole cents. */
export function decimalToCents(amount: number): number {
  return Math.round(amount * 100);
}

/** 1250 → 12.5 */
export function centsToDecimal(cents: number): number {
  return cents / 100;
}

const formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 12.5 → "$12.50" */
export function formatPrice(amount: number): string {
  return formatter.format(amount);
}
