import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { TeacherFeeRate, UpcomingPayouts } from '@skillhive/shared/contracts/earnings';
import type { AdminPayment } from '@skillhive/shared/contracts/refunds';
import type { UserListItem } from '@skillhive/shared/contracts/users';
import { EARNINGS_MESSAGES } from '@skillhive/shared/rules/earnings';
import { createQueryClient } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { Device, buy, deviceOf, signUp } from '../../../test/real-api.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { PayoutsPage } from './payouts-page.tsx';

/**
 * The admin's Payouts page against the real server (the built-in test gateway): a dispute raised
 * on a payment is in the queue with its classes and amount; a teacher's fee rate is refused out of
 * range with the shared message, then stored (checked through the API) and given back.
 */

const browser = browserOnRealServer();
let queryClient: QueryClient;

async function adminDevice(): Promise<Device> {
  return new Device(browser.server).signIn(browser.server.admin.email, browser.server.admin.password);
}

describe('the admin’s Payouts page', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('lists the upcoming payouts and a disputed payment with its class, amount and state', async () => {
    const student = await signUp(browser.server, 'Dora Dispute');
    await buy(await deviceOf(browser.server, student), ['Ben’s bread']);
    const admin = await adminDevice();
    const [payment] = await admin.ok<AdminPayment[]>(
      'GET',
      `/api/admin/payments?q=${encodeURIComponent(student.email)}`,
    );
    await admin.ok('POST', '/api/admin/test-gateway/disputes', { transactionId: payment!.transactionId });
    const upcoming = await admin.ok<UpcomingPayouts>('GET', '/api/admin/payouts/upcoming');

    await browser.signIn(browser.server.admin);
    renderSignedInPage(queryClient, { path: paths.dashboard.payouts, element: <PayoutsPage /> });
    const disputes = await screen.findByRole('region', { name: 'Disputes, newest first' }, { timeout: 15_000 });
    const row = within(disputes).getByRole('row', { name: new RegExp(payment!.transactionId) });
    expect(row.textContent).toContain('Ben’s bread');
    expect(row.textContent).toContain('$19.99');
    expect(within(row).getByText('Open')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Upcoming payouts' })).toBeTruthy();
    if (upcoming.payouts.length > 0) {
      expect(await screen.findByRole('region', { name: 'Upcoming payouts by teacher' })).toBeTruthy();
    } else {
      expect(await screen.findByText('No teacher has a balance to pay out.')).toBeTruthy();
    }
  });

  it('sets a teacher’s own fee rate after refusing one out of range, and goes back to the platform’s', async () => {
    const admin = await adminDevice();
    const [teacher] = (
      await admin.ok<UserListItem[]>('GET', `/api/users?q=${encodeURIComponent(browser.server.teacher.email)}`)
    ).filter((person) => person.teacher);

    await browser.signIn(browser.server.admin);
    renderSignedInPage(queryClient, { path: paths.dashboard.payouts, element: <PayoutsPage /> });
    fireEvent.change(await screen.findByLabelText('Teacher name or e-mail'), {
      target: { value: browser.server.teacher.email },
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Find teachers' })));
    await act(async () =>
      fireEvent.click(await screen.findByRole('button', { name: `Set the fee rate of ${teacher!.name}` })),
    );
    const dialog = await screen.findByRole('dialog', { name: `Fee rate of ${teacher!.name}` });
    const field = await within(dialog).findByLabelText('Their fee (%)');

    fireEvent.change(field, { target: { value: '150' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save fee rate' })));
    expect(await within(dialog).findByText(EARNINGS_MESSAGES.feePercent)).toBeTruthy();

    fireEvent.change(field, { target: { value: '12.5' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save fee rate' })));
    await waitFor(async () => {
      const rate = await admin.ok<TeacherFeeRate>('GET', `/api/admin/teachers/${teacher!._id}/fee-rate`);
      expect(rate.ownFeePercent).toBe(12.5);
    });

    // Emptied: the platform's rate again.
    await act(async () =>
      fireEvent.click(await screen.findByRole('button', { name: `Set the fee rate of ${teacher!.name}` })),
    );
    const again = await screen.findByRole('dialog', { name: `Fee rate of ${teacher!.name}` });
    const emptied = await within(again).findByLabelText('Their fee (%)');
    await waitFor(() => expect((emptied as HTMLInputElement).value).toBe('12.5'));
    fireEvent.change(emptied, { target: { value: '' } });
    await act(async () => fireEvent.click(within(again).getByRole('button', { name: 'Save fee rate' })));
    await waitFor(async () => {
      const rate = await admin.ok<TeacherFeeRate>('GET', `/api/admin/teachers/${teacher!._id}/fee-rate`);
      expect(rate.ownFeePercent).toBeNull();
    });
  });
});
