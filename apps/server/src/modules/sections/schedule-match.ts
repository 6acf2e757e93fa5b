import {
  hasScheduleFilter,
  type ScheduleFilterQuery,
  WEEKDAYS,
  wantedHours,
} from '@skillhive/shared/rules/schedule-filter';
import { fromLocalDateTime, offsetAt } from '@skillhive/shared/rules/time-zones';

/**
 * The catalogue's schedule filter turned into what the sections' schedule summary can be matched
 * against (decision 053). Pure: no database, so it is unit-tested on its own.
 */

const QUARTERS_PER_DAY = 96;
const WEEK_QUARTERS = 7 * QUARTERS_PER_DAY;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** How far ahead the zone's offsets are looked at; a session further out is checked exactly. */
const HORIZON_DAYS = 400;

export interface ScheduleMatch {
  /** The visitor's zone. */
  timeZone: string;
  /** Sections whose next start is at or after this instant (local midnight of `startsAfter`). */
  startsFrom: Date | null;
  /**
   * The week's quarter hours the visitor wants, on their clock (bit q = Monday 00:00 local + 15 q
   * minutes), or null for any day and time.
   */
  localSlots: string | null;
  /**
   * The UTC quarter hours of the week (0–671, ascending) that fit at one offset or another the zone
   * has within the horizon: a section with a start outside them is out.
   */
  wantedUtcSlots: number[] | null;
  /**
   * Until this instant the zone keeps today's offset: a section whose last start is before it is
   * decided by the summary alone; one past it also has its sessions checked on the visitor's clock
   * (a daylight-saving change moves the wanted UTC hours). Null: no change within the horizon.
   */
  exactBefore: Date | null;
}

/** The quarter hours of a local week the query wants (every day and time when it names none). */
export function localWantedSlots(query: ScheduleFilterQuery): string {
  const days = new Set(query.days ?? WEEKDAYS);
  const hours = wantedHours(query) ?? [{ from: 0, to: 24 }];
  let bits = '';
  for (const day of WEEKDAYS) {
    for (let quarter = 0; quarter < QUARTERS_PER_DAY; quarter++) {
      const hour = Math.floor(quarter / 4);
      const wanted = days.has(day) && hours.some((range) => hour >= range.from && hour < range.to);
      bits += wanted ? '1' : '0';
    }
  }
  return bits;
}

/**
 * The local slots seen from UTC at an offset (local = UTC + offset). Every zone's offset is a whole
 * number of quarter hours, so a local hour boundary is a UTC quarter boundary: the shift is exact,
 * Asia/Kolkata's +5:30 and Asia/Kathmandu's +5:45 included.
 */
export function utcSlotsAtOffset(localSlots: string, offsetMinutes: number): string {
  const shift = Math.round(offsetMinutes / 15);
  let bits = '';
  for (let utc = 0; utc < WEEK_QUARTERS; utc++) {
    bits += localSlots[(((utc + shift) % WEEK_QUARTERS) + WEEK_QUARTERS) % WEEK_QUARTERS];
  }
  return bits;
}

/** The zone's offsets from now to the horizon, and the last day's start before the first change. */
function offsetsAhead(timeZone: string, now: Date): { offsets: number[]; exactBefore: Date | null } {
  const first = offsetAt(now.getTime(), timeZone);
  const offsets = new Set([first]);
  let exactBefore: Date | null = null;
  for (let day = 1; day <= HORIZON_DAYS; day++) {
    const instant = now.getTime() + day * DAY_MS;
    const offset = offsetAt(instant, timeZone);
    if (offset !== first && !exactBefore) exactBefore = new Date(instant - DAY_MS);
    offsets.add(offset);
  }
  return { offsets: [...offsets].map((ms) => ms / MINUTE_MS), exactBefore };
}

/** What the query asks of a section's schedule, or null when it sets no schedule filter. */
export function scheduleMatchOf(query: ScheduleFilterQuery, now: Date): ScheduleMatch | null {
  if (!hasScheduleFilter(query)) return null;
  const timeZone = query.tz ?? 'UTC';
  const startsFrom = query.startsAfter
    ? (fromLocalDateTime(`${query.startsAfter}T00:00`, timeZone) ??
      // A zone whose clocks skip midnight that day (DST at 00:00) starts the day at 01:00.
      fromLocalDateTime(`${query.startsAfter}T01:00`, timeZone))
    : null;
  const wantsSlots = Boolean(query.days || query.times || query.fromHour !== undefined || query.toHour !== undefined);
  if (!wantsSlots) return { timeZone, startsFrom, localSlots: null, wantedUtcSlots: null, exactBefore: null };
  const localSlots = localWantedSlots(query);
  const { offsets, exactBefore } = offsetsAhead(timeZone, now);
  const union = Array.from({ length: WEEK_QUARTERS }, () => false);
  for (const offset of offsets) {
    const utc = utcSlotsAtOffset(localSlots, offset);
    for (let i = 0; i < WEEK_QUARTERS; i++) if (utc[i] === '1') union[i] = true;
  }
  const wantedUtcSlots = union.flatMap((wanted, slot) => (wanted ? [slot] : []));
  return { timeZone, startsFrom, localSlots, wantedUtcSlots, exactBefore };
}
