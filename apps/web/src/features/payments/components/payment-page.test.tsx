import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { Enrollment } from '@skillhive/shared/contracts/enrollments';
import type { Payment } from '@skillhive/shared/contracts/payments';
import { COUPON_MESSAGES } from '@skillhive/shared/rules/coupons';
import { createQueryClient } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { browserOnRealServer } from '../../../test/browser.ts';
import { buy, createSiteCoupon, deviceOf, enroll, signUp, withdrawClass, type Person } from '../../../test/real-api.ts';
import type { CatalogueTitle } from '../../../test/real-server.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { PaymentPage } from './payment-page.tsx';

const browser = browserOnRealServer();
let queryClient: QueryClient;

function renderPaymentPage() {
  return renderSignedInPage(queryClient, { path: paths.dashboard.payment, element: <PaymentPage /> }, [
    { path: paths.dashboard.myEnrollClass, element: <p>My enrolled classes page</p> },
  ]);
}

/**
 * A student of the server the page is on, with these classes in their cart (enrolled through the
 * API), signed in in this browser.
 */
async function studentWithCart(titles: CatalogueTitle[], options: { verified?: boolean } = {}): Promise<Person> {
  const student = await signUp(browser.server, 'Sam Student', options);
  await enroll(await deviceOf(browser.server, student), titles);
  await browser.signIn(student);
  return student;
}

const cartPath = (student: Person) => `/api/enrolled/${encodeURIComponent(student.email)}`;

describe('PaymentPage', () => {
  beforeEach(() => {
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
  });

  it('shows a loading state while the cart is on its way', async () => {
    const student = await studentWithCart(['Watercolour basics']);
    const release = browser.hold((method, path) => method === 'GET' && path === cartPath(student));
    renderPaymentPage();
    await waitFor(() => expect(browser.requests).toContain(`GET ${cartPath(student)}`));
    expect(screen.getByRole('status').textContent).toContain('Loading');
    release();
    expect(await screen.findByText('Watercolour basics')).toBeTruthy();
  });

  it('applies a coupon: the discount per line and the new total; a refused code says why and keeps the total', async () => {
    const code = `PAGE-${Date.now().toString(36).toUpperCase()}`;
    await createSiteCoupon(browser.server, { code, kind: 'percent', value: 20 });
    await studentWithCart(['Watercolour basics', 'Ink drawing']);
    renderPaymentPage();
    await waitFor(() => expect(screen.getByTestId('payment-total').textContent).toBe('$49.98'));
    const field = screen.getByLabelText('Coupon code');
    fireEvent.change(field, { target: { value: 'NO-SUCH-CODE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect((await screen.findByRole('alert')).textContent).toBe(COUPON_MESSAGES.unusable);
    expect(screen.getByTestId('payment-total').textContent).toBe('$49.98');
    fireEvent.change(field, { target: { value: code.toLowerCase() } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect((await screen.findByTestId('applied-coupon')).textContent).toBe(code);
    // 20% of 24.99 is 4.998 → 5.00 off each line (halves up per line): 39.98 to pay.
    await waitFor(() => expect(screen.getByTestId('payment-total').textContent).toBe('$39.98'));
    expect(screen.getByTestId('coupon-discount').textContent).toBe('−$10.00');
    const discounts = screen.getByTestId('coupon-discounts');
    expect(within(discounts).getByText('Watercolour basics')).toBeTruthy();
    expect(within(discounts).getByText('Ink drawing')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: `Remove the coupon ${code}` }));
    await waitFor(() => expect(screen.getByTestId('payment-total').textContent).toBe('$49.98'));
  });

  it('shows an empty cart with a way back to the catalogue', async () => {
    await studentWithCart([]);
    renderPaymentPage();
    expect(await screen.findByText('Your cart is empty.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse classes' }).getAttribute('href')).toBe(paths.allClasses);
  });

  it('shows the cart, the server’s total and the card form', async () => {
    await studentWithCart(['Watercolour basics', 'Ink drawing']);
    renderPaymentPage();
    expect(await screen.findByRole('heading', { name: 'Your cart (2)' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('payment-total').textContent).toBe('$49.98'));
    const form = screen.getByRole('form', { name: 'Card payment' });
    expect(within(form).getByLabelText('Card number')).toBeTruthy();
    await waitFor(() =>
      expect((within(form).getByRole('button', { name: /Pay/ }) as HTMLButtonElement).disabled).toBe(false),
    );
  });

  it('asks an unverified student to verify their address instead of offering the card form', async () => {
    const student = await studentWithCart(['Watercolour basics'], { verified: false });
    renderPaymentPage();
    const alert = await screen.findByText(/Verify your e-mail address to apply to teach and to pay/);
    expect(alert.textContent).toContain(student.email);
    expect(screen.queryByRole('form', { name: 'Card payment' })).toBeNull();
  });

  it('says so when no class in the cart can be paid for, and asks for no total', async () => {
    await studentWithCart(['Withdrawn class']);
    // Someone else paid for the class, then it was deleted: it is archived, and this cart's line
    // can no longer be paid for.
    const other = await signUp(browser.server, 'Olive Other');
    await buy(await deviceOf(browser.server, other), ['Withdrawn class']);
    await withdrawClass(browser.server, 'Withdrawn class');
    renderPaymentPage();
    expect(await screen.findByText(/No class in your cart can be paid for/)).toBeTruthy();
    expect(screen.getByText('Withdrawn class')).toBeTruthy();
    expect(screen.getByTestId('cart-line-unavailable')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Card payment' })).toBeNull();
    expect(browser.requests).not.toContain('POST /api/create-payment-intent');
  });

  it('on a Stripe deployment loads Stripe.js from the configured address instead of the test card form', async () => {
    // A server configured for Stripe (its API is the server suites' local stand-in); jsdom does
    // not run the script, so the page waits for Stripe's form.
    browser.visit(inject('stripeServer'));
    await studentWithCart(['Watercolour basics']);
    renderPaymentPage();
    expect(await screen.findByText("Loading Stripe's secure card form…")).toBeTruthy();
    const config = await (await fetch(`${inject('stripeServer').baseUrl}/api/config`)).json();
    expect(config.payments.stripeJsUrl).toMatch(/^https:\/\/js\.stripe\.com\//);
    await waitFor(() =>
      expect([...document.scripts].map((script) => script.src)).toContain(config.payments.stripeJsUrl),
    );
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(browser.requests).toContain('POST /api/create-payment-intent');
    // Pay waits for Stripe's form to be ready.
    const pay = screen.getByRole('button', { name: /Pay/ }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
  });

  it('pays: confirms the card, records exactly the lines the server totalled, then shows the classes', async () => {
    const student = await studentWithCart(['Watercolour basics', 'Ink drawing']);
    const router = renderPaymentPage();

    const form = await screen.findByRole('form', { name: 'Card payment' });
    const pay = within(form).getByRole('button', { name: /Pay/ }) as HTMLButtonElement;
    await waitFor(() => expect(pay.disabled).toBe(false));
    fireEvent.change(within(form).getByLabelText('Card number'), { target: { value: '4242424242424242' } });
    fireEvent.change(within(form).getByLabelText(/Expiry/), { target: { value: '1234' } });
    fireEvent.change(within(form).getByLabelText('CVC'), { target: { value: '123' } });
    const sentBefore = browser.requests.length;
    fireEvent.click(pay);

    expect(await screen.findByText('My enrolled classes page')).toBeTruthy();
    expect(router.location().pathname).toBe(paths.dashboard.myEnrollClass);
    // Paying is the card's confirmation, then the record of exactly that payment.
    expect(browser.requests.slice(sentBefore).filter((request) => request.startsWith('POST '))).toEqual([
      'POST /api/test-gateway/confirm',
      'POST /api/payments',
    ]);

    // What the server stored: both lines paid, in one payment of the server's total.
    const device = await deviceOf(browser.server, student);
    const email = encodeURIComponent(student.email);
    const paid = await device.ok<Enrollment[]>('GET', `/api/enrolled/${email}?status=paid`);
    expect(paid.map((line) => line.title).sort()).toEqual(['Ink drawing', 'Watercolour basics']);
    const payments = await device.ok<Payment[]>('GET', `/api/payments/${email}`);
    expect(payments).toEqual([
      expect.objectContaining({
        email: student.email,
        price: 49.98,
        cartIds: expect.arrayContaining(paid.map((line) => line._id)),
        menuItemIds: expect.arrayContaining([
          browser.server.classes['Watercolour basics'],
          browser.server.classes['Ink drawing'],
        ]),
      }),
    ]);
    expect(payments[0]!.cartIds).toHaveLength(2);
  });
});
