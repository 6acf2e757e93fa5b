import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { CardDetails } from '@skillhive/shared/rules/card-form';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { CardForm } from './card-form.tsx';

function renderForm(props: { ready?: boolean; busy?: boolean; gatewayError?: string | null } = {}) {
  const paid: CardDetails[] = [];
  const view = render(
    <CardForm
      ready={props.ready ?? true}
      busy={props.busy ?? false}
      amountLabel="$49.98"
      gatewayError={props.gatewayError ?? null}
      onPay={(card) => paid.push(card)}
    />,
  );
  const form = screen.getByRole('form', { name: 'Card payment' });
  return { form, paid, view };
}

function type(form: HTMLElement, card: { cardNumber: string; expiry: string; cvc: string }) {
  fireEvent.change(within(form).getByLabelText('Card number'), { target: { value: card.cardNumber } });
  fireEvent.change(within(form).getByLabelText('Expiry (MM/YY)'), { target: { value: card.expiry } });
  fireEvent.change(within(form).getByLabelText('CVC'), { target: { value: card.cvc } });
}

const pay = (form: HTMLElement) => within(form).getByRole('button', { name: 'Pay $49.98' }) as HTMLButtonElement;

describe('CardForm', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps Pay disabled until the payment is ready and while it is being paid', () => {
    const { form, view } = renderForm({ ready: false });
    expect(pay(form).disabled).toBe(true);
    view.rerender(<CardForm ready busy={false} amountLabel="$49.98" gatewayError={null} onPay={() => {}} />);
    expect(pay(form).disabled).toBe(false);
    view.rerender(<CardForm ready busy amountLabel="$49.98" gatewayError={null} onPay={() => {}} />);
    expect(pay(form).disabled).toBe(true);
    expect(pay(form).getAttribute('aria-busy')).toBe('true');
  });

  it('groups the digits and writes the expiry as MM/YY while typing', () => {
    const { form } = renderForm();
    type(form, { cardNumber: '4242424242424242', expiry: '1234', cvc: '12a3' });
    expect((within(form).getByLabelText('Card number') as HTMLInputElement).value).toBe('4242 4242 4242 4242');
    expect((within(form).getByLabelText('Expiry (MM/YY)') as HTMLInputElement).value).toBe('12/34');
    expect((within(form).getByLabelText('CVC') as HTMLInputElement).value).toBe('123');
  });

  it('shows the shared message under each wrong field and pays nothing', async () => {
    const { form, paid } = renderForm();
    type(form, { cardNumber: '4242424242424241', expiry: '1330', cvc: '12' });
    await act(async () => fireEvent.click(pay(form)));
    expect(within(form).getByLabelText('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getByText(PAYMENT_MESSAGES.cardNumber)).toBeTruthy();
    expect(within(form).getByText(PAYMENT_MESSAGES.expiry)).toBeTruthy();
    expect(within(form).getByText(PAYMENT_MESSAGES.cvc)).toBeTruthy();
    expect(paid).toEqual([]);
  });

  it('refuses an expired card', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T12:00:00Z'), toFake: ['Date'] });
    const { form, paid } = renderForm();
    type(form, { cardNumber: '4242424242424242', expiry: '1026', cvc: '123' });
    await act(async () => fireEvent.click(pay(form)));
    expect(within(form).getByText(PAYMENT_MESSAGES.expired)).toBeTruthy();
    expect(paid).toEqual([]);
  });

  it('pays with the digits, the month, the four-digit year and the CVC', async () => {
    const { form, paid } = renderForm();
    type(form, { cardNumber: '378282246310005', expiry: '0131', cvc: '1234' });
    await act(async () => fireEvent.click(pay(form)));
    expect(paid).toEqual([{ cardNumber: '378282246310005', expMonth: 1, expYear: 2031, cvc: '1234' }]);
  });

  it("shows the gateway's message", () => {
    renderForm({ gatewayError: PAYMENT_MESSAGES.declined });
    expect(screen.getByRole('alert').textContent).toBe(PAYMENT_MESSAGES.declined);
  });
});
