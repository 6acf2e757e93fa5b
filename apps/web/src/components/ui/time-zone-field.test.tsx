import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { TIME_ZONE_NAMES } from '@skillhive/shared/rules/time-zone-names';
import { TimeZoneField, defaultTimeZone, timeZoneSuggestions } from './time-zone-field.tsx';

describe('TimeZoneField', () => {
  it('is a labelled combobox suggesting current IANA names with their offsets', () => {
    render(<TimeZoneField defaultValue="Europe/Kyiv" name="timeZone" />);
    const field = screen.getByRole('combobox', { name: 'Time zone' }) as HTMLInputElement;
    expect(field.value).toBe('Europe/Kyiv');
    expect(field.getAttribute('aria-describedby')).toBe(`${field.id}-hint`);
    expect(document.getElementById(`${field.id}-hint`)?.textContent).toMatch(/Type to search/);
    const list = document.getElementById(field.getAttribute('list')!) as HTMLDataListElement;
    const values = [...list.options].map((option) => option.value);
    expect(values).toEqual(TIME_ZONE_NAMES);
    expect(values).toContain('Asia/Kolkata');
    expect(values).toContain('Europe/Kyiv');
    expect(values).not.toContain('Asia/Calcutta');
    expect(values).not.toContain('Europe/Kiev');
    const kolkata = [...list.options].find((option) => option.value === 'Asia/Kolkata')!;
    expect(kolkata.label).toBe('Asia/Kolkata — UTC+05:30');
    expect(timeZoneSuggestions().find((option) => option.value === 'UTC')?.label).toBe('UTC — UTC+00:00');
  });

  it('says what is wrong, tied to the field', () => {
    render(<TimeZoneField name="timeZone" error="Choose a time zone from the list" />);
    const field = screen.getByRole('combobox', { name: 'Time zone' });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Choose a time zone from the list',
    );
  });

  it('defaults to the viewer’s zone by its current name', () => {
    expect(TIME_ZONE_NAMES).toContain(defaultTimeZone());
  });
});
