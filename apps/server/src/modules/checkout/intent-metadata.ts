import * as enrollments from '../enrollments/enrollments.service.ts';

/** One payment covers at most this many enrollments (CreatePaymentBody.cartIds allows 200). */
export const MAX_CART_LINES = 200;

// ---- The cart an intent covers, carried in the intent's metadata --------------------------------
// Stripe limits metadata values to 500 characters and 50 keys, so the enrollment ids are stored in
// chunks of 13 (13 × 37 characters < 500): cart_0, cart_1, … and their count in cart_count.
const IDS_PER_KEY = 13;

export function encodeCart(ids: readonly string[]): Record<string, string> {
  const metadata: Record<string, string> = { cart_count: String(ids.length) };
  for (let i = 0; i * IDS_PER_KEY < ids.length; i++) {
    metadata[`cart_${i}`] = ids.slice(i * IDS_PER_KEY, (i + 1) * IDS_PER_KEY).join(',');
  }
  return metadata;
}

/** The enrollment ids an intent was created for, or null when its metadata is not ours. */
export function decodeCart(metadata: Record<string, string>): string[] | null {
  const n = Number(metadata.cart_count);
  if (!Number.isInteger(n) || n < 1 || n > MAX_CART_LINES) return null;
  const ids: string[] = [];
  for (let i = 0; i * IDS_PER_KEY < n; i++) ids.push(...(metadata[`cart_${i}`] ?? '').split(',').filter(Boolean));
  return ids.length === n && ids.every(enrollments.isUuid) ? ids : null;
}

export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === a.length && left.size === right.size && [...left].every((id) => right.has(id));
}

/** The intent's metadata key that binds it to the coupon it was priced with (decision 019). */
export const COUPON_METADATA_KEY = 'coupon_id';

/** The coupon id an intent was created with, '' when none; null when the metadata holds something else. */
export function couponIdOf(metadata: Record<string, string>): string | null {
  const id = metadata[COUPON_METADATA_KEY];
  if (id === undefined || id === '') return '';
  return enrollments.isUuid(id) ? id : null;
}
