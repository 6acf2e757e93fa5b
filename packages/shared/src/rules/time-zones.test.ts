import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, TIME_ZONE_NAMES } from './time-zone-names.ts';
import { fromLocalDateTime, isTimeZone, toLocalDateTime, weeklyLocalTimes } from './time-zones.ts';

describe('wall-clock times in IANA zones', () => {
  it('converts a local time to the instant it names, either side of daylight-saving changes', () => {
    expect(fromLocalDateTime('2026-03-23T18:00', 'Europe/Berlin')?.toISOString()).toBe('2026-03-23T17:00:00.000Z');
    expect(fromLocalDateTime('2026-03-30T18:00', 'Europe/Berlin')?.toISOString()).toBe('2026-03-30T16:00:00.000Z');
    expect(fromLocalDateTime('2026-03-06T09:00', 'America/New_York')?.toISOString()).toBe('2026-03-06T14:00:00.000Z');
    expect(fromLocalDateTime('2026-03-09T09:00', 'America/New_York')?.toISOString()).toBe('2026-03-09T13:00:00.000Z');
    expect(fromLocalDateTime('2026-07-01T12:00', 'UTC')?.toISOString()).toBe('2026-07-01T12:00:00.000Z');
    expect(fromLocalDateTime('2026-07-01T12:00', 'Asia/Kolkata')?.toISOString()).toBe('2026-07-01T06:30:00.000Z');
  });

  it('refuses a time the clocks skip and takes the first of a time shown twice', () => {
    expect(fromLocalDateTime('2026-03-29T02:30', 'Europe/Berlin')).toBeNull();
    expect(fromLocalDateTime('2026-03-08T02:30', 'America/New_York')).toBeNull();
    expect(fromLocalDateTime('2026-10-25T02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(fromLocalDateTime('2026-11-01T01:30', 'America/New_York')?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('refuses malformed and impossible dates', () => {
    expect(fromLocalDateTime('2026-02-30T10:00', 'UTC')).toBeNull();
    expect(fromLocalDateTime('2026-03-23 18:00', 'UTC')).toBeNull();
    expect(fromLocalDateTime('', 'UTC')).toBeNull();
  });

  it('shows an instant as the local time of a zone, and back', () => {
    const instant = new Date('2026-03-30T16:00:00.000Z');
    expect(toLocalDateTime(instant, 'Europe/Berlin')).toBe('2026-03-30T18:00');
    expect(toLocalDateTime(instant, 'America/New_York')).toBe('2026-03-30T12:00');
    expect(fromLocalDateTime(toLocalDateTime(instant, 'Australia/Sydney'), 'Australia/Sydney')).toEqual(instant);
  });

  it('knows IANA zone names', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('repeats a local time weekly across month, year and daylight-saving changes', () => {
    expect(weeklyLocalTimes('2026-12-24T18:00', 3)).toEqual([
      '2026-12-24T18:00',
      '2026-12-31T18:00',
      '2027-01-07T18:00',
    ]);
    const berlin = weeklyLocalTimes('2026-03-23T18:00', 2).map((local) => fromLocalDateTime(local, 'Europe/Berlin'));
    expect(berlin.map((instant) => instant?.toISOString())).toEqual([
      '2026-03-23T17:00:00.000Z',
      '2026-03-30T16:00:00.000Z',
    ]);
    expect(weeklyLocalTimes('soon', 2)).toEqual([]);
  });
});

describe('current IANA names (@vvo/tzdb)', () => {
  it('lists the current names, not the renamed ones the runtime still reports', () => {
    expect(TIME_ZONE_NAMES).toContain('Asia/Kolkata');
    expect(TIME_ZONE_NAMES).toContain('Europe/Kyiv');
    expect(TIME_ZONE_NAMES).toContain('UTC');
    expect(TIME_ZONE_NAMES).not.toContain('Asia/Calcutta');
    expect(TIME_ZONE_NAMES).not.toContain('Europe/Kiev');
    expect(TIME_ZONE_NAMES.every(isTimeZone)).toBe(true);
    expect(new Set(TIME_ZONE_NAMES).size).toBe(TIME_ZONE_NAMES.length);
  });

  it('gives an old name of a zone its current name, and keeps current and unknown-to-the-list names', () => {
    expect(canonicalTimeZone('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('Etc/UTC')).toBe('UTC');
  });
});
