import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { EarningLine, EarningsSummary } from '@skillhive/shared/contracts/earnings';
import { createQueryClient } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { Device, buy, deviceOf, signUp } from '../../../test/real-api.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { EarningsPage } from './earnings-page.tsx';
import { formatCents } from './earnings-format.tsx';

/**
 * The teacher's Earnings page against the real server: a student's purchase is a line of the
 * ledger, shown with the figures the server computed, the student by initials only; the
 * balances, the payout account and the monthly statement are there. What the page shows is
 * compared with what the server answers the teacher through its API.
 */

const browser = browserOnRealServer();
let queryClient: QueryClient;

describe('the teacher’s Earnings page', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('shows a sale with its gross, fee and share, the student by initials only, and the balances', async () => {
    // Initials no other test's student has: the line is found among everyone's purchases.
    const student = await signUp(browser.server, 'Quilla Xerxes');
    await buy(await deviceOf(browser.server, student), ['Ann’s pottery']);
    const teacher = await new Device(browser.server).signIn(
      browser.server.teacher.email,
      browser.server.teacher.password,
    );
    const lines = await teacher.ok<EarningLine[]>('GET', '/api/teachers/me/earnings/lines?page=1&limit=50');
    const line = lines.find((l) => l.studentInitials.replace(/\W/g, '') === 'QX')!;
    expect(line.grossCents).toBe(1999);
    expect(line.feeCents + line.shareCents).toBe(line.grossCents);
    const summary = await teacher.ok<EarningsSummary>('GET', '/api/teachers/me/earnings');

    await browser.signIn(browser.server.teacher);
    renderSignedInPage(queryClient, { path: paths.dashboard.earnings, element: <EarningsPage /> });
    const sales = await screen.findByRole('region', { name: 'Sales, newest first' }, { timeout: 15_000 });
    const row = within(sales)
      .getAllByRole('row')
      .find((r) => within(r).queryByText(line.studentInitials) !== null)!;
    expect(within(row).getByRole('rowheader').textContent).toMatch(/^Ann’s pottery\s*paid /);
    expect(row.textContent).toContain(formatCents(line.grossCents));
    expect(row.textContent).toContain(formatCents(line.feeCents));
    expect(row.textContent).toContain(formatCents(line.shareCents));
    // The refund window is open: the share is pending.
    expect(within(row).getByText('Pending')).toBeTruthy();
    expect(screen.queryByText(student.name)).toBeNull();
    expect(screen.queryByText(student.email)).toBeNull();

    const balances = screen.getByRole('region', { name: 'Balance' });
    const pending = within(balances).getByText('Pending').parentElement!;
    expect(pending.textContent).toContain(formatCents(summary.pendingCents));
    // The test gateway simulates connected accounts: onboarding is offered.
    const account = screen.getByRole('region', { name: 'Payout account' });
    expect(within(account).getByText('Not connected')).toBeTruthy();
    expect(within(account).getByRole('button', { name: 'Connect payout account' })).toBeTruthy();
    // A statement per month, this month first.
    const month = screen.getByLabelText('Month') as HTMLSelectElement;
    expect(month.value).toBe(new Date().toISOString().slice(0, 7));
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
  });
});
