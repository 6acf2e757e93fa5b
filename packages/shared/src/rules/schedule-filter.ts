import { z } from 'zod';
import { isTimeZone } from './time-zones.ts';
import { TIMES_OF_DAY, WEEKDAYS, isCalendarDate, type TimeOfDay } from './weekly-schedule.ts';

export {
  TIMES_OF_DAY,
  WEEKDAYS,
  WEEKDAY_LABELS,
  isCalendarDate,
  type TimeOfDay,
  type Weekday,
} from './weekly-schedule.ts';

/**
 * The catalogue's schedule filters (decision 053): a visitor asks for classes that fit their week
 * — days of the week and times of day on their own clock, in the zone their browser reports — and
 * that start after a date. A section fits when every session it still has to hold does; a class
 * fits when one of its sections does.
 */

const TIME_OF_DAY_NAMES = Object.keys(TIMES_OF_DAY) as TimeOfDay[];

export const SCHEDULE_FILTER_MESSAGES = {
  timeZone: 'tz must be an IANA time zone such as Europe/Berlin',
  date: 'startsAfter must be a date (YYYY-MM-DD)',
  days: `days must be a comma-separated list of ${WEEKDAYS.join(', ')}`,
  times: `times must be a comma-separated list of ${TIME_OF_DAY_NAMES.join(', ')}`,
  hour: 'fromHour and toHour must be whole hours from 0 to 24',
  hourOrder: 'toHour must be after fromHour',
  timesAndHours: 'Choose times of day or an hour range, not both',
} as const;

/** A comma-separated list of known words, parsed into the distinct words in their canonical order. */
function wordList<T extends string>(words: readonly T[], message: string) {
  return z
    .string()
    .trim()
    .max(100, message)
    .transform((value, ctx) => {
      const parts = value
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean);
      if (parts.length === 0 || parts.some((part) => !(words as readonly string[]).includes(part))) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return words.filter((word) => parts.includes(word));
    });
}

const Hour = z.coerce
  .number({ error: SCHEDULE_FILTER_MESSAGES.hour })
  .int(SCHEDULE_FILTER_MESSAGES.hour)
  .min(0, SCHEDULE_FILTER_MESSAGES.hour)
  .max(24, SCHEDULE_FILTER_MESSAGES.hour)
  .optional();

/** The schedule part of GET /api/classes' query (merged into ClassListQuery). */
export const ScheduleFilterQuery = z.object({
  /** The visitor's IANA zone (the browser's `Intl.DateTimeFormat().resolvedOptions().timeZone`); UTC when absent. */
  tz: z
    .string()
    .trim()
    .refine((value) => isTimeZone(value), SCHEDULE_FILTER_MESSAGES.timeZone)
    .optional(),
  /** Sections whose next session starts on this local date or later. */
  startsAfter: z.string().trim().refine(isCalendarDate, SCHEDULE_FILTER_MESSAGES.date).optional(),
  days: wordList(WEEKDAYS, SCHEDULE_FILTER_MESSAGES.days).optional(),
  times: wordList(TIME_OF_DAY_NAMES, SCHEDULE_FILTER_MESSAGES.times).optional(),
  fromHour: Hour,
  toHour: Hour,
});
export type ScheduleFilterQuery = z.infer<typeof ScheduleFilterQuery>;

/** The cross-field rules of the schedule filter, for a `superRefine` of the whole query. */
export function checkScheduleFilter(query: ScheduleFilterQuery, ctx: z.RefinementCtx): void {
  const hasHours = query.fromHour !== undefined || query.toHour !== undefined;
  if (hasHours && query.times) {
    ctx.addIssue({ code: 'custom', path: ['times'], message: SCHEDULE_FILTER_MESSAGES.timesAndHours });
  }
  if ((query.fromHour ?? 0) >= (query.toHour ?? 24)) {
    ctx.addIssue({ code: 'custom', path: ['toHour'], message: SCHEDULE_FILTER_MESSAGES.hourOrder });
  }
}

/** Whether the query asks for any schedule filter (a self-paced class then matches nothing). */
export function hasScheduleFilter(query: ScheduleFilterQuery): boolean {
  return Boolean(
    query.startsAfter || query.days || query.times || query.fromHour !== undefined || query.toHour !== undefined,
  );
}

/** The visitor's wanted local hour ranges [from, to), or null for any time of day. */
export function wantedHours(query: ScheduleFilterQuery): { from: number; to: number }[] | null {
  if (query.times) return query.times.map((name) => ({ from: TIMES_OF_DAY[name].from, to: TIMES_OF_DAY[name].to }));
  if (query.fromHour !== undefined || query.toHour !== undefined) {
    return [{ from: query.fromHour ?? 0, to: query.toHour ?? 24 }];
  }
  return null;
}
