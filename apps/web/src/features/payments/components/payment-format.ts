import type { PaymentHistoryEntry, PaymentMethod } from '@skillhive/shared/contracts/payments';

/** 6549, 'usd' → "$65.49" in the reader's locale (the server's money is integer cents, DESIGN §1.3). */
export function formatCents(cents: number, currency: string): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

/** An ISO date as the reader's locale writes a date and time. */
export function formatPaymentDate(iso: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
}

/** How the payment was made, as a receipt says it. */
export function paymentMethodLabel(method: PaymentMethod): string {
  const card = method.brand && method.last4 ? `${capitalise(method.brand)} ending in ${method.last4}` : null;
  if (method.gateway === 'test') return card ? `${card} (test gateway, no real money)` : 'Test gateway (no real money)';
  if (card) return card;
  return 'Card (Stripe)';
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export const PAYMENT_STATUS_LABEL: Record<PaymentHistoryEntry['status'], string> = {
  succeeded: 'Paid',
  pending: 'Pending',
  failed: 'Failed',
};

/** The status a person reads for a payment: refunds change "Paid" to what was given back. */
export function paymentStatusLabel(
  entry: Pick<PaymentHistoryEntry, 'status' | 'refundedCents' | 'totalCents'>,
): string {
  if (entry.status === 'succeeded' && entry.refundedCents > 0) {
    return entry.refundedCents >= entry.totalCents ? 'Refunded' : 'Partly refunded';
  }
  return PAYMENT_STATUS_LABEL[entry.status];
}

/** The title of the class a refund gave back, when it names one line of the payment. */
export function refundedTitle(entry: Pick<PaymentHistoryEntry, 'lines'>, enrollmentId: string | null): string | null {
  return entry.lines.find((line) => line._id === enrollmentId)?.title ?? null;
}
