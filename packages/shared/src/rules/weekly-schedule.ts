/**
 * The words of the catalogue's schedule filter (decision 053) without its query schema: the
 * catalogue page imports these, and zod stays out of its first-load JavaScript (the 150 KB budget).
 */

/** Days of the week as the filter spells them, Monday first (ISO). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** Parts of the day on the visitor's clock, as hour ranges [from, to). */
export const TIMES_OF_DAY = {
  morning: { from: 6, to: 12, label: 'Morning (6–12)' },
  afternoon: { from: 12, to: 18, label: 'Afternoon (12–18)' },
  evening: { from: 18, to: 24, label: 'Evening (18–24)' },
} as const;
export type TimeOfDay = keyof typeof TIMES_OF_DAY;
/** A calendar date that exists (2025-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = m.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
