import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { ClassRosterEntry } from '@skillhive/shared/contracts/enrollments';
import { RosterTable } from './class-roster.tsx';

const entries: ClassRosterEntry[] = [
  {
    enrollmentId: 'e2',
    studentName: 'Grace Hopper',
    studentEmail: 'grace@example.test',
    status: 'pending',
    enrolledAt: '2026-03-04T10:00:00.000Z',
    paidAt: null,
    priceCents: 1999,
    price: 19.99,
  },
  {
    enrollmentId: 'e1',
    studentName: 'Deleted account',
    studentEmail: 'deleted-account',
    status: 'paid',
    enrolledAt: '2026-02-01T09:00:00.000Z',
    paidAt: '2026-02-01T09:05:00.000Z',
    priceCents: 123456,
    price: 1234.56,
  },
];

describe('RosterTable', () => {
  it('is a labelled table: a header per column, a row header per student', () => {
    render(<RosterTable entries={entries} />);
    const table = screen.getByRole('table', { name: 'Students of this class' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Student', 'Status', 'Enrolled', 'Paid on', 'Price']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'Grace Hoppergrace@example.test',
      'Deleted accountdeleted-account',
    ]);
  });

  it('shows status, dates and price; an unpaid line has no payment date', () => {
    render(<RosterTable entries={entries} />);
    const [pending, paid] = screen.getAllByRole('row').slice(1);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        // The stacked layout's labels are for sighted users only; assistive technology reads the headers.
        .map((cell) =>
          [...cell.children]
            .filter((c) => c.getAttribute('aria-hidden') !== 'true')
            .map((c) => c.textContent)
            .join(''),
        );
    expect(cells(pending!)).toEqual(['Pending', '4 Mar 2026', '—', '$19.99']);
    expect(cells(paid!)).toEqual(['Paid', '1 Feb 2026', '1 Feb 2026', '$1,234.56']);
    expect(within(paid!).getAllByText('1 Feb 2026')[1]!.closest('time')!.getAttribute('dateTime')).toBe(
      '2026-02-01T09:05:00.000Z',
    );
  });
});
