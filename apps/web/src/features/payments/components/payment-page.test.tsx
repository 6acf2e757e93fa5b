import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { Enrollment } from '@skillhive/shared/enrollments';
import type { PaymentIntentResponse } from '@skillhive/shared/payments';
import { createQueryClient } from '../../../lib/query-client.ts';
import { paths } from '../../../config/paths.ts';
import { apiError, createFakeApi, json, list, serveSignedIn, type FakeApi } from '../../../test/fake-api.ts';
import { renderSignedInPage } from '../../../test/render-signed-in-page.tsx';
import { PaymentPage } from './payment-page.tsx';

const STUDENT = { id: 'u-sam', email: 'sam@example.test', name: 'Sam Student' };

function line(id: string, title: string, price: number, available = true): Enrollment {
  return {
    _id: id,
    enrollId: `class-${id}`,
    email: STUDENT.email,
    name: 'Tess Teacher',
    title,
    image: '/img.webp',
    price,
    description: '',
    status: 'pending',
    createdAt: '2026-03-01T10:00:00.000Z',
    paidAt: null,
    available,
  };
}

function intent(overrides: Partial<PaymentIntentResponse> = {}): PaymentIntentResponse {
  return {
    clientSecret: 'pi_1_secret',
    amount: 4998,
    currency: 'usd',
    gateway: 'test',
    publishableKey: null,
    cartIds: ['e1', 'e2'],
    ...overrides,
  };
}

let api: FakeApi;
let queryClient: QueryClient;

function renderPaymentPage() {
  return renderSignedInPage(queryClient, { path: paths.dashboard.payment, element: <PaymentPage /> }, [
    { path: paths.dashboard.myEnrollClass, element: <p>My enrolled classes page</p> },
  ]);
}

/** The signed-in student's cart: GET /api/enrolled/:email?status=pending. */
function serveCart(items: Enrollment[]) {
  api.on('GET', '/api/enrolled/:email', ({ params, query, headers }) => {
    expect(params['email']).toBe(STUDENT.email);
    expect(query.get('status')).toBe('pending');
    expect(headers.get('authorization')).toBe(`Bearer jwt-${STUDENT.id}`);
    return list(items);
  });
}

describe('PaymentPage', () => {
  beforeEach(() => {
    api = serveSignedIn(createFakeApi(), STUDENT);
    vi.stubGlobal('fetch', api.fetch);
    queryClient = createQueryClient();
  });
  afterEach(() => {
    queryClient.clear();
    vi.unstubAllGlobals();
  });

  it('shows a loading state while the cart is on its way', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api.on('GET', '/api/enrolled/:email', async () => {
      await held;
      return list([line('e1', 'Watercolour basics', 24.99)]);
    });
    renderPaymentPage();
    await waitFor(() => expect(api.calls).toContain(`GET /api/enrolled/${encodeURIComponent(STUDENT.email)}`));
    expect(screen.getByRole('status').textContent).toContain('Loading');
    release();
    expect(await screen.findByText('Watercolour basics')).toBeTruthy();
  });

  it('shows an empty cart with a way back to the catalogue', async () => {
    serveCart([]);
    renderPaymentPage();
    expect(await screen.findByText('Your cart is empty.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse classes' }).getAttribute('href')).toBe(paths.allClasses);
  });

  it('shows the cart, the server’s total and the card form', async () => {
    serveCart([line('e1', 'Watercolour basics', 24.99), line('e2', 'Ink drawing', 24.99)]);
    api.on('POST', '/api/create-payment-intent', () => json(intent()));
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
    serveCart([line('e1', 'Watercolour basics', 24.99)]);
    api.on('POST', '/api/create-payment-intent', () =>
      apiError(403, 'email_not_verified', 'Verify your e-mail address first'),
    );
    renderPaymentPage();
    const alert = await screen.findByText(/Verify your e-mail address to apply to teach and to pay/);
    expect(alert.textContent).toContain(STUDENT.email);
    expect(screen.queryByRole('form', { name: 'Card payment' })).toBeNull();
  });

  it('says so when no class in the cart can be paid for, and asks for no total', async () => {
    serveCart([line('e1', 'Withdrawn class', 24.99, false)]);
    renderPaymentPage();
    expect(await screen.findByText(/No class in your cart can be paid for/)).toBeTruthy();
    expect(screen.getByTestId('cart-line-unavailable')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Card payment' })).toBeNull();
    expect(api.calls).not.toContain('POST /api/create-payment-intent');
  });

  it('says card payments are unavailable when the gateway is Stripe and its form cannot load', async () => {
    serveCart([line('e1', 'Watercolour basics', 24.99)]);
    api.on('POST', '/api/create-payment-intent', () =>
      json(intent({ gateway: 'stripe', publishableKey: 'pk_test', amount: 2499, cartIds: ['e1'] })),
    );
    renderPaymentPage();
    expect(await screen.findByText(/payments are not available on this server/)).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Card payment' })).toBeNull();
  });

  it('pays: confirms the card, records exactly the lines the server totalled, then shows the classes', async () => {
    serveCart([line('e1', 'Watercolour basics', 24.99), line('e2', 'Ink drawing', 24.99)]);
    api.on('POST', '/api/create-payment-intent', () => json(intent()));
    const confirmed: unknown[] = [];
    api.on('POST', '/api/test-gateway/confirm', ({ body }) => {
      confirmed.push(body);
      return json({ status: 'succeeded', transactionId: 'tx_1' });
    });
    const recorded: unknown[] = [];
    api.on('POST', '/api/payments', ({ body }) => {
      recorded.push(body);
      return json({ paymentResult: { insertedId: 'pay_1' } }, { status: 201 });
    });
    const router = renderPaymentPage();

    const form = await screen.findByRole('form', { name: 'Card payment' });
    const pay = within(form).getByRole('button', { name: /Pay/ }) as HTMLButtonElement;
    await waitFor(() => expect(pay.disabled).toBe(false));
    fireEvent.change(within(form).getByLabelText('Card number'), { target: { value: '4242424242424242' } });
    fireEvent.change(within(form).getByLabelText(/Expiry/), { target: { value: '1234' } });
    fireEvent.change(within(form).getByLabelText('CVC'), { target: { value: '123' } });
    fireEvent.click(pay);

    expect(await screen.findByText('My enrolled classes page')).toBeTruthy();
    expect(router.state.location.pathname).toBe(paths.dashboard.myEnrollClass);
    expect(confirmed).toEqual([expect.objectContaining({ clientSecret: 'pi_1_secret' })]);
    expect(recorded).toEqual([
      expect.objectContaining({
        email: STUDENT.email,
        price: 49.98,
        transactionId: 'tx_1',
        cartIds: ['e1', 'e2'],
        menuItemIds: ['class-e1', 'class-e2'],
      }),
    ]);
  });
});
