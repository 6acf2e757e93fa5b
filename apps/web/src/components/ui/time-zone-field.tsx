import { useId, type InputHTMLAttributes, type Ref } from 'react';
import { TIME_ZONE_NAMES, canonicalTimeZone } from '@skillhive/shared/rules/time-zone-names';
import { isTimeZone } from '@skillhive/shared/rules/time-zones';
import { TextField } from './form-field.tsx';

/**
 * The one time-zone picker of the teacher's editor (sessions and sections, decisions 021 and 041):
 * a text field that suggests the current IANA names (TIME_ZONE_NAMES, "Asia/Kolkata" rather than
 * the runtime's "Asia/Calcutta") from a native `<datalist>`, so it is a combobox to assistive
 * technology, filters as one types ("kolk", "berlin") and is keyboard-usable without a UI kit.
 * Each suggestion reads with its offset from UTC now ("Asia/Kolkata — UTC+05:30").
 */

let options: { value: string; label: string }[] | null = null;

/** The zone's offset now, as "UTC+05:30" (UTC itself: "UTC+00:00", which some runtimes write "GMT"). */
function offsetNow(zone: string, now: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(now)
    .find((p) => p.type === 'timeZoneName')?.value;
  return !part || part === 'GMT' ? 'UTC+00:00' : part.replace('GMT', 'UTC');
}

/** Every suggestion, made once per page load (418 zones: a few milliseconds). */
export function timeZoneSuggestions(): { value: string; label: string }[] {
  if (!options) {
    const now = new Date();
    options = TIME_ZONE_NAMES.map((zone) => ({
      value: zone,
      label: `${zone.replace(/_/g, ' ')} — ${offsetNow(zone, now)}`,
    }));
  }
  return options;
}

/** The viewer's own zone by its current name: the editor's default. */
export function defaultTimeZone(): string {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return own && isTimeZone(own) ? canonicalTimeZone(own) : 'UTC';
}

type TimeZoneFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'list' | 'type'> & {
  label?: string;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
};

export function TimeZoneField({ label = 'Time zone', error, ref, ...input }: TimeZoneFieldProps) {
  const listId = useId();
  return (
    <>
      <TextField
        label={label}
        ref={ref}
        list={listId}
        autoComplete="off"
        spellCheck={false}
        placeholder="Type a city or region"
        hint="Type to search, for example Kolkata or Berlin."
        error={error}
        {...input}
      />
      <datalist id={listId}>
        {timeZoneSuggestions().map((option) => (
          <option key={option.value} value={option.value} label={option.label} />
        ))}
      </datalist>
    </>
  );
}
