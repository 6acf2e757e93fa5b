import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { AdminPayment, RefundRequest } from '@skillhive/shared/contracts/refunds';
import { REFUND_MESSAGES } from '@skillhive/shared/rules/refunds';
import { createQueryClient } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { Device, buy, deviceOf, signUp, type Person } from '../../../test/real-api.ts';
import type { CatalogueTitle } from '../../../test/real-server.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { MyEnrolledClasses } from '../../enrollments/components/my-enrolled-classes.tsx';
import { RefundsPage } from './refunds-page.tsx';

/**
 * Refunds in the browser against the real server (issue 18 §3): a student asks for a refund on My
 * Enrolled Classes; an admin approves it on the Refunds page, or finds a payment and refunds a
 * class of it. What the server stored is checked through its API.
 */

const browser = browserOnRealServer();
let queryClient: QueryClient;

async function studentWhoBought(titles: CatalogueTitle[]): Promise<Person> {
  const student = await signUp(browser.server, 'Reni Refund');
  await buy(await deviceOf(browser.server, student), titles);
  return student;
}

async function signInHere(email: string, password: string) {
  const signedIn = await browser.request('POST', '/api/auth/sign-in/email', { email, password });
  expect(signedIn.status).toBe(200);
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

  it('a student requests a refund with a reason and sees it waiting; an admin approves it', async () => {
    const student = await studentWhoBought(['Ink drawing']);
    await signInHere(student.email, student.password);
    renderSignedInPage(queryClient, { path: paths.dashboard.myEnrollClass, element: <MyEnrolledClasses /> });

    const card = (await screen.findByRole('heading', { name: 'Ink drawing' })).closest('article')!;
    await act(async () =>
      fireEvent.click(await within(card as HTMLElement).findByRole('button', { name: 'Request a refund' })),
    );
    const dialog = screen.getByRole('dialog', { name: 'Request a refund of “Ink drawing”?' });
    // No reason: the shared message, and nothing sent.
    const sentBefore = browser.requests.length;
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Request refund' })));
    expect(await within(dialog).findByText(REFUND_MESSAGES.reasonRequired)).toBeTruthy();
    expect(browser.requests.slice(sentBefore)).not.toContain('POST /api/refund-requests');

    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: '  The schedule changed  ' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Request refund' })));
    expect(await within(card as HTMLElement).findByText('Refund requested: waiting for a decision.')).toBeTruthy();
    expect(within(card as HTMLElement).queryByRole('button', { name: 'Request a refund' })).toBeNull();

    // The admin, signed in in this browser now, approves it on the Refunds page.
    queryClient.clear();
    await signInHere(browser.server.admin.email, browser.server.admin.password);
    renderSignedInPage(queryClient, { path: paths.dashboard.refunds, element: <RefundsPage /> });
    const approve = await screen.findByRole('button', {
      name: `Approve the refund of Ink drawing for ${student.email.toLowerCase()}`,
    });
    const row = approve.closest('tr')!;
    expect(within(row).getByText('The schedule changed')).toBeTruthy();
    await act(async () => fireEvent.click(approve));
    await waitFor(async () => {
      const [payment] = await paymentsOf(student.email);
      expect(payment!.lines).toEqual([expect.objectContaining({ title: 'Ink drawing', status: 'refunded' })]);
    });
    const requests = await browser.request<RefundRequest[]>('GET', '/api/admin/refund-requests?status=approved');
    expect(requests.body.map((r) => r.studentEmail)).toContain(student.email.toLowerCase());
  });

  it('an admin finds a payment by e-mail and refunds one class of it with a reason', async () => {
    const student = await studentWhoBought(['Ann’s pottery', 'Ben’s bread']);
    await signInHere(browser.server.admin.email, browser.server.admin.password);
    renderSignedInPage(queryClient, { path: paths.dashboard.refunds, element: <RefundsPage /> });

    fireEvent.change(await screen.findByLabelText('Student e-mail or transaction id'), {
      target: { value: student.email },
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Find payments' })));
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Refund Ann’s pottery' })));
    const dialog = screen.getByRole('dialog', { name: 'Refund “Ann’s pottery” ($19.99)?' });
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
