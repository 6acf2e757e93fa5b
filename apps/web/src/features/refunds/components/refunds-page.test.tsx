import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { Enrollment } from '@skillhive/shared/contracts/enrollments';
import type { AdminPayment, MyRefundRequests } from '@skillhive/shared/contracts/refunds';
import { REFUND_MESSAGES } from '@skillhive/shared/rules/refunds';
import { createQueryClient } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { Device, buy, deviceOf, signUp, type Person } from '../../../test/real-api.ts';
import type { CatalogueTitle } from '../../../test/real-server.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { RefundsPage } from './refunds-page.tsx';

/**
 * The admin's Refunds page against the real server: requests students made through
 * the API are approved or declined; a payment found by e-mail has a class refunded. What the
 * server stored is checked through its API.
 */

const browser = browserOnRealServer();
let queryClient: QueryClient;

async function studentWhoBought(titles: CatalogueTitle[]): Promise<Person> {
  const student = await signUp(browser.server, 'Reni Refund');
  await buy(await deviceOf(browser.server, student), titles);
  return student;
}

/** The admin on a device of their own: what the server says about a student's payments. */
async function paymentsOf(email: string): Promise<AdminPayment[]> {
  const admin = await new Device(browser.server).signIn(browser.server.admin.email, browser.server.admin.password);
  return admin.ok<AdminPayment[]>('GET', `/api/admin/payments?q=${encodeURIComponent(email)}`);
}

describe('refunds in the web app', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('lists a pending request with its reason; approving it refunds the class', async () => {
    const student = await signUp(browser.server, 'Reni Refund');
    const device = await deviceOf(browser.server, student);
    await buy(device, ['Ink drawing']);
    const [line] = (await device.ok<Enrollment[]>('GET', `/api/enrolled/${encodeURIComponent(student.email)}`)).filter(
      (item) => item.title === 'Ink drawing',
    );
    await device.ok('POST', '/api/refund-requests', { enrollmentId: line!._id, reason: 'The schedule changed' });

    await browser.signIn(browser.server.admin);
    renderSignedInPage(queryClient, { path: paths.dashboard.refunds, element: <RefundsPage /> });
    const approve = await screen.findByRole('button', {
      name: `Approve the refund of Ink drawing for ${student.email.toLowerCase()}`,
    });
    const row = approve.closest('tr')!;
    expect(within(row).getByText('The schedule changed')).toBeTruthy();
    await act(async () => fireEvent.click(approve));
    // Money goes back only once the admin confirms what and to whom.
    const dialog = await screen.findByRole('dialog', { name: /^Refund \$[\d.]+ for “Ink drawing”\?$/ });
    expect(within(dialog).getByText(`${student.email.toLowerCase()} gets`, { exact: false })).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, refund' })));
    // The list follows the server: no longer pending.
    await waitFor(() => expect(screen.queryByRole('button', { name: approve.getAttribute('aria-label')! })).toBeNull());
    const [payment] = await paymentsOf(student.email);
    expect(payment!.lines).toEqual([expect.objectContaining({ title: 'Ink drawing', status: 'refunded' })]);
    const mine = await device.ok<MyRefundRequests>('GET', '/api/refund-requests/mine');
    expect(mine.requests).toEqual([expect.objectContaining({ enrollmentId: line!._id, status: 'approved' })]);
  });

  it('declining asks for the reason the student will read', async () => {
    const student = await signUp(browser.server, 'Dana Decline');
    const device = await deviceOf(browser.server, student);
    await buy(device, ['Watercolour basics']);
    const [line] = await device.ok<Enrollment[]>('GET', `/api/enrolled/${encodeURIComponent(student.email)}`);
    await device.ok('POST', '/api/refund-requests', { enrollmentId: line!._id, reason: 'Too hard' });

    await browser.signIn(browser.server.admin);
    renderSignedInPage(queryClient, { path: paths.dashboard.refunds, element: <RefundsPage /> });
    const decline = await screen.findByRole('button', {
      name: `Decline the refund of Watercolour basics for ${student.email.toLowerCase()}`,
    });
    await act(async () => fireEvent.click(decline));
    const dialog = await screen.findByRole('dialog', { name: 'Decline the refund of “Watercolour basics”?' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' })));
    expect(await within(dialog).findByText(REFUND_MESSAGES.reasonRequired)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Most of it was attended' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' })));
    await waitFor(async () => {
      const mine = await device.ok<MyRefundRequests>('GET', '/api/refund-requests/mine');
      expect(mine.requests).toEqual([
        expect.objectContaining({ status: 'declined', decisionReason: 'Most of it was attended' }),
      ]);
    });
    const [payment] = await paymentsOf(student.email);
    expect(payment!.lines.map((l) => l.status)).toEqual(['paid']);
  });

  it('an admin finds a payment by e-mail and refunds one class of it with a reason', async () => {
    const student = await studentWhoBought(['Ann’s pottery', 'Ben’s bread']);
    await browser.signIn(browser.server.admin);
    renderSignedInPage(queryClient, { path: paths.dashboard.refunds, element: <RefundsPage /> });

    fireEvent.change(await screen.findByLabelText('Student e-mail or transaction id'), {
      target: { value: student.email },
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Find payments' })));
    const refundButton = await screen.findByRole('button', { name: 'Refund Ann’s pottery' });
    await act(async () => fireEvent.click(refundButton));
    const dialog = await screen.findByRole('dialog', { name: 'Refund “Ann’s pottery” ($19.99)?' });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Teacher cancelled' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' })));

    // The table follows the server: the class refunded, the other still paid and refundable.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Refund Ann’s pottery' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Refund Ben’s bread' })).toBeTruthy();
    const [payment] = await paymentsOf(student.email);
    expect(payment!.refundedCents).toBe(1999);
    expect(payment!.refunds).toEqual([expect.objectContaining({ amountCents: 1999, reason: 'Teacher cancelled' })]);
    expect(payment!.lines.map((line) => [line.title, line.status]).sort()).toEqual([
      ['Ann’s pottery', 'refunded'],
      ['Ben’s bread', 'paid'],
    ]);
  });
});
