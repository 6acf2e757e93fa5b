import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { PaymentHistoryEntry } from '@skillhive/shared/contracts/payments';
import { createQueryClient } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { Device, buy, deviceOf, signUp, type Person } from '../../../test/real-api.ts';
import type { CatalogueTitle } from '../../../test/real-server.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { PaymentHistory } from './payment-history.tsx';
import { PaymentReceiptPage } from './payment-receipt.tsx';
import { formatPaymentDate } from './payment-format.ts';

const browser = browserOnRealServer();
let queryClient: QueryClient;

/** A student who bought each cart in turn through the API, then signed in in this browser. */
async function studentWhoBought(carts: CatalogueTitle[][]): Promise<Person> {
  const student = await signUp(browser.server, 'Rita Receipt');
  const device = await deviceOf(browser.server, student);
  for (const cart of carts) await buy(device, cart);
  await browser.signIn(student);
  return student;
}

/** The signed-in person's payments as the server answers them. */
async function paymentsOnServer(): Promise<PaymentHistoryEntry[]> {
  const answer = await browser.request<PaymentHistoryEntry[]>('GET', '/api/payments/me');
  expect(answer.status).toBe(200);
  return answer.body;
}

function renderHistory() {
  return renderSignedInPage(queryClient, { path: paths.dashboard.paymentHistory, element: <PaymentHistory /> }, [
    { path: '/dashboard/paymentHistory/:id', element: <p>Receipt page</p> },
    { path: paths.allClasses, element: <p>Catalogue</p> },
  ]);
}

function renderReceipt(id: string) {
  return renderSignedInPage(queryClient, {
    path: paths.dashboard.paymentReceipt(id),
    element: <PaymentReceiptPage paymentId={id} />,
  });
}

describe('PaymentHistory', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('shows a loading state, then every payment newest first with its classes, total and transaction id', async () => {
    await studentWhoBought([['Watercolour basics', 'Ann’s pottery'], ['Ink drawing']]);
    const [newest, oldest] = await paymentsOnServer();
    const release = browser.hold((method, path) => method === 'GET' && path.startsWith('/api/payments/me'));
    renderHistory();
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Loading'));
    release();

    const payments = await screen.findAllByRole('article');
    expect(payments).toHaveLength(2);
    expect(within(payments[0]!).getByRole('heading').textContent).toBe(formatPaymentDate(newest!.paidAt));
    expect(within(payments[0]!).getByText('Ink drawing')).toBeTruthy();
    expect(within(payments[0]!).getByText(`${newest!.transactionId}`)).toBeTruthy();

    const pair = payments[1]!;
    expect(within(pair).getByText(oldest!.transactionId)).toBeTruthy();
    const lines = within(within(pair).getByRole('list', { name: 'Classes paid' })).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual(['Ann’s pottery$19.99', 'Watercolour basics$24.99']);
    expect(within(pair).getByText('$44.98')).toBeTruthy();
    expect(within(pair).getByText('Paid')).toBeTruthy();

    const link = within(pair).getByRole('link', { name: 'View receipt' });
    expect(link.getAttribute('href')).toBe(paths.dashboard.paymentReceipt(oldest!._id));
    fireEvent.click(link);
    expect(await screen.findByText('Receipt page')).toBeTruthy();
  });

  it('says when there is no payment yet, with a way to the catalogue', async () => {
    await studentWhoBought([]);
    renderHistory();
    expect(await screen.findByRole('heading', { name: 'You have not made a payment yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse classes' }).getAttribute('href')).toBe(paths.allClasses);
  });
});

describe('PaymentReceiptPage', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
    vi.restoreAllMocks();
  });

  it('renders the receipt: seller, buyer, date, method, transaction id, lines and total; Print prints', async () => {
    const student = await studentWhoBought([['Watercolour basics', 'Ben’s bread']]);
    const [payment] = await paymentsOnServer();
    renderReceipt(payment!._id);

    const receipt = await screen.findByRole('article', { name: 'Receipt' });
    expect(receipt.hasAttribute('data-receipt')).toBe(true);
    expect(within(receipt).getByText('SkillHive', { selector: 'p' })).toBeTruthy();
    expect(within(receipt).getByText(student.name, { exact: false })).toBeTruthy();
    expect(within(receipt).getByText(student.email)).toBeTruthy();
    expect(within(receipt).getByText(formatPaymentDate(payment!.paidAt))).toBeTruthy();
    // The test gateway reports the card it charged: brand and last 4 on the receipt (decision 019).
    expect(within(receipt).getByText('Visa ending in 4242 (test gateway, no real money)')).toBeTruthy();
    expect(within(receipt).getByText(payment!.transactionId)).toBeTruthy();

    const table = within(receipt).getByRole('table', { name: 'Classes paid' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Class', 'Amount'],
      ['Ben’s bread', '$19.99'],
      ['Watercolour basics', '$24.99'],
      ['Total paid', '$44.98'],
    ]);

    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('shows a refund: the line marked refunded, what was given back and the net paid', async () => {
    await studentWhoBought([['Watercolour basics', 'Ann’s pottery']]);
    const [payment] = await paymentsOnServer();
    const line = payment!.lines.find((l) => l.title === 'Ann’s pottery')!;
    const admin = await new Device(browser.server).signIn(browser.server.admin.email, browser.server.admin.password);
    await admin.ok('POST', `/api/admin/payments/${payment!._id}/refunds`, {
      enrollmentId: line._id,
      reason: 'Class moved to a date I cannot make',
    });
    renderReceipt(payment!._id);

    const receipt = await screen.findByRole('article', { name: 'Receipt' });
    expect(within(receipt).getByText('Partly refunded')).toBeTruthy();
    const rows = within(within(receipt).getByRole('table', { name: 'Classes paid' }))
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Class', 'Amount'],
      ['Ann’s pottery (Refunded)', '$19.99'],
      ['Watercolour basics', '$24.99'],
      ['Total paid', '$44.98'],
      ['Refunded', '−$19.99'],
      ['Net paid', '$24.99'],
    ]);
    const refunds = within(receipt).getByRole('region', { name: 'Refunds' });
    expect(refunds.textContent).toContain('$19.99 for Ann’s pottery — Class moved to a date I cannot make');
  });

  it('answers another person’s payment with an error, not their receipt', async () => {
    await studentWhoBought([['Ink drawing']]);
    const [theirs] = await paymentsOnServer();
    await studentWhoBought([]);
    renderReceipt(theirs!._id);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error fetching the receipt: Payment not found');
    expect(screen.queryByRole('article')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Print' })).toBeNull();
  });
});
