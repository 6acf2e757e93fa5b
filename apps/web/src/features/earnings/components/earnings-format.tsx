import type { ConnectStatus, DisputeStatus, EarningLineState, PayoutStatus } from '@skillhive/shared/rules/earnings';

/** 6549, 'usd' → "$65.49" (money is integer cents inside, decision 039). */
export function formatCents(cents: number, currency = 'usd'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** A date of the ledger in a <time>, kept on one line (a table cell never breaks it). */
export function When({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  return (
    <time dateTime={iso} className="whitespace-nowrap">
      {(withTime ? dateTimeFormat : dateFormat).format(new Date(iso))}
    </time>
  );
}

/** A state as a one-line badge (no wrapping inside a badge, at any width). */
export function StateBadge({ label, tone }: { label: string; tone: string }) {
  return <span className={`badge whitespace-nowrap ${tone}`}>{label}</span>;
}

export const LINE_STATE: Record<EarningLineState, { label: string; tone: string }> = {
  pending: { label: 'Pending', tone: 'badge-warning' },
  available: { label: 'Available', tone: 'badge-info' },
  paid: { label: 'Paid out', tone: 'badge-success' },
  frozen: { label: 'Disputed', tone: 'badge-error' },
  refunded: { label: 'Refunded', tone: 'badge-ghost' },
};

export const PAYOUT_STATE: Record<PayoutStatus, { label: string; tone: string }> = {
  in_flight: { label: 'Sending', tone: 'badge-info' },
  manual: { label: 'Bank transfer due', tone: 'badge-warning' },
  paid: { label: 'Paid', tone: 'badge-success' },
  failed: { label: 'Failed', tone: 'badge-error' },
  reversed: { label: 'Reversed', tone: 'badge-ghost' },
};

export const CONNECT_STATE: Record<ConnectStatus, { label: string; tone: string }> = {
  none: { label: 'Not connected', tone: 'badge-ghost' },
  pending: { label: 'Setup pending', tone: 'badge-warning' },
  enabled: { label: 'Payouts enabled', tone: 'badge-success' },
  disabled: { label: 'Payouts disabled', tone: 'badge-error' },
};

export const DISPUTE_STATE: Record<DisputeStatus, { label: string; tone: string }> = {
  open: { label: 'Open', tone: 'badge-warning' },
  won: { label: 'Won', tone: 'badge-success' },
  lost: { label: 'Lost', tone: 'badge-error' },
};

const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** 'YYYY-MM' → "March 2026". */
export function monthName(month: string): string {
  return monthFormat.format(new Date(`${month}-01T00:00:00Z`));
}

const shortMonthFormat = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** 'YYYY-MM' → "Mar 2026" (a table's first column). */
export function shortMonthName(month: string): string {
  return shortMonthFormat.format(new Date(`${month}-01T00:00:00Z`));
}

/** The `count` calendar months (UTC) up to and including the one of `now`, newest first, as 'YYYY-MM'. */
export function recentMonths(now: Date, count = 12): string[] {
  return Array.from({ length: count }, (_, back) => {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}
