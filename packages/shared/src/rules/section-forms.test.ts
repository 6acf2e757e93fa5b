import { describe, expect, it } from 'vitest';
import { SectionFormBody } from './section-forms.ts';
import { SECTION_MESSAGES } from './sections.ts';

/** The section form (decision 041) as the editor fills it: numbers typed as text, '' for "none". */
function firstMessages(input: unknown) {
  const result = SectionFormBody.safeParse(input);
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[issue.path.join('.')] ??= issue.message;
  return fields;
}

const valid = {
  timeZone: 'Europe/Berlin',
  capacity: '12',
  minimum: '',
  enrollOpensAt: '',
  enrollClosesAt: '2026-05-01T18:00',
};

describe('section form', () => {
  it('reads typed numbers and leaves an empty minimum and window as none', () => {
    expect(SectionFormBody.parse(valid)).toEqual({ ...valid, capacity: 12 });
    expect(SectionFormBody.parse({ timeZone: 'UTC', capacity: 3 })).toEqual({
      timeZone: 'UTC',
      capacity: 3,
      minimum: '',
      enrollOpensAt: '',
      enrollClosesAt: '',
    });
    expect(SectionFormBody.parse({ ...valid, minimum: '12' }).minimum).toBe(12);
  });

  it('says what is wrong with each field', () => {
    expect(firstMessages({ ...valid, capacity: '' })).toEqual({ capacity: SECTION_MESSAGES.capacityRange });
    expect(firstMessages({ ...valid, capacity: '10001' })).toEqual({ capacity: SECTION_MESSAGES.capacityRange });
    expect(firstMessages({ ...valid, minimum: '13' })).toEqual({ minimum: SECTION_MESSAGES.minimumAboveMaximum });
    expect(firstMessages({ ...valid, minimum: '0' })).toEqual({ minimum: SECTION_MESSAGES.minimumRange });
    expect(firstMessages({ ...valid, enrollOpensAt: '2026-05-02T09:00' })).toEqual({
      enrollClosesAt: SECTION_MESSAGES.windowOrder,
    });
    expect(firstMessages({ ...valid, enrollClosesAt: 'tomorrow' })).toEqual({
      enrollClosesAt: SECTION_MESSAGES.closesInvalid,
    });
    expect(firstMessages({ ...valid, timeZone: 'Nowhere/Else' })).toEqual({
      timeZone: 'Choose a time zone from the list',
    });
  });
});
