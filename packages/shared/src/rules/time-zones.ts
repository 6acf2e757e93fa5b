/**
 * Wall-clock times in IANA time zones (decision 021): a session is entered as a local date and time
 * in the zone its teacher chose and stored as an instant, so every viewer sees it in their own
 * zone and a weekly session keeps its local hour across daylight-saving changes. Only `Intl` is
 * used, so the server and the browser convert the same way.
 */

/** A local date and time as a form field gives it: `YYYY-MM-DDTHH:mm`. */
export const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `value` names a time zone this runtime knows (an IANA name such as "Europe/Berlin"). */
export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    formatterFor(value);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone. */
function wallFields(instant: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The zone's offset from UTC at an instant, in milliseconds (Berlin in summer: +2 h). */
export function offsetAt(instant: number, timeZone: string): number {
  const f = wallFields(instant, timeZone);
  const asUtc = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** `YYYY-MM-DDTHH:mm` of an instant in a zone: what a teacher in that zone reads on their clock. */
export function toLocalDateTime(instant: Date, timeZone: string): string {
  const f = wallFields(instant.getTime(), timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${f.year}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}`;
}

/**
 * The instant a local date and time in a zone names, or null when the clock never shows it (the
 * hour skipped when daylight-saving time starts). A time shown twice (the hour repeated when it
 * ends) is the first of the two, as calendars do.
 */
export function fromLocalDateTime(local: string, timeZone: string): Date | null {
  const m = LOCAL_DATE_TIME.exec(local);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  if (Number.isNaN(wall)) return null;
  // The offsets in force a day either side bracket the answer; try the earlier instant first.
  const candidates = [...new Set([offsetAt(wall - 86_400_000, timeZone), offsetAt(wall + 86_400_000, timeZone)])]
    .map((offset) => wall - offset)
    .sort((a, b) => a - b);
  for (const instant of candidates) {
    if (toLocalDateTime(new Date(instant), timeZone) === local) return new Date(instant);
  }
  return null;
}

/**
 * The same wall-clock time `count` weeks in a row, from `local` (`YYYY-MM-DDTHH:mm`): a weekly
 * session keeps its local hour across daylight-saving changes (decision 021). Calendar
 * arithmetic on the date alone, so no zone is involved; a malformed start gives [].
 */
export function weeklyLocalTimes(local: string, count: number): string[] {
  const m = LOCAL_DATE_TIME.exec(local);
  if (!m) return [];
  const [year, month, day] = m.slice(1, 4).map(Number) as [number, number, number];
  const time = local.slice(10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return Array.from({ length: count }, (_, week) => {
    const date = new Date(Date.UTC(year, month - 1, day + 7 * week));
    return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}${time}`;
  });
}
