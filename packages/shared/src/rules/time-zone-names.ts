import CURRENT_NAMES from '@vvo/tzdb/time-zones-names.json' with { type: 'json' };
import { isTimeZone } from './time-zones.ts';

/**
 * The time zones a teacher picks from, by their current IANA names ("Asia/Kolkata", "Europe/Kyiv").
 * `Intl.supportedValuesOf('timeZone')` answers the CLDR names of the runtime's ICU, which still
 * include renamed zones ("Asia/Calcutta", "Europe/Kiev"), so the list comes from @vvo/tzdb, which
 * follows each tz database release; no rename table of our own to keep. Kept in its own module
 * so that the pages which only convert times (time-zones.ts) do not download the list.
 */

/** Current IANA names this runtime knows (a name newer than its ICU is left out), and UTC. */
export const TIME_ZONE_NAMES: readonly string[] = [
  'UTC',
  ...(CURRENT_NAMES as string[]).filter((name) => name !== 'UTC' && isTimeZone(name)),
];

const CURRENT = new Set(TIME_ZONE_NAMES);

/** The runtime's own id of a zone: old and new names of one zone share it ("Asia/Calcutta" for both). */
function runtimeIdOf(zone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
}

let currentByRuntimeId: Map<string, string> | null = null;

/**
 * The current name of a zone the runtime knows: a current name is kept; an older name of the same
 * zone ("Asia/Calcutta", "Europe/Kiev", "US/Pacific") becomes the current one it is an alias of; a
 * valid name with no current counterpart is kept as given. Call with a name `isTimeZone` accepted.
 */
export function canonicalTimeZone(zone: string): string {
  if (CURRENT.has(zone)) return zone;
  currentByRuntimeId ??= new Map(TIME_ZONE_NAMES.map((name) => [runtimeIdOf(name), name]));
  return currentByRuntimeId.get(runtimeIdOf(zone)) ?? zone;
}
