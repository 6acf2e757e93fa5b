/**
 * The frames of the fake Stripe.js (stripe-js.ts), on the fake Stripe's origin like Stripe's own:
 * the Payment Element's card fields (/fake/elements/payment), which send the card to the fake
 * API's confirm endpoint themselves, and the bank's 3-D Secure challenge (/fake/three-d-secure)
 * with Complete and Fail. Served as a classic script by fixtures/stripe.ts.
 */
import type { PaymentIntent, StripeError } from '@stripe/stripe-js';

const params = new URLSearchParams(window.location.search);
const frameName = params.get('frame') ?? '';

function tell(message: Record<string, unknown>) {
  // The shop's origin is not known to the frame here; the parent checks this frame's origin.
  window.parent.postMessage({ fake: 'stripe', frame: frameName, ...message }, '*');
}

function field(label: string, id: string, attributes: Record<string, string>): HTMLInputElement {
  const wrapper = document.createElement('div');
  wrapper.className = 'field';
  const labelElement = document.createElement('label');
  labelElement.htmlFor = id;
  labelElement.textContent = label;
  const input = document.createElement('input');
  input.id = id;
  for (const [name, value] of Object.entries(attributes)) input.setAttribute(name, value);
  const error = document.createElement('p');
  error.id = `${id}-error`;
  error.className = 'error';
  error.setAttribute('role', 'alert');
  input.setAttribute('aria-describedby', error.id);
  wrapper.append(labelElement, input, error);
  document.getElementById('fields')!.append(wrapper);
  return input;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

function paymentElementFrame() {
  const number = field('Card number', 'number', {
    inputmode: 'numeric',
    autocomplete: 'cc-number',
    placeholder: '1234 1234 1234 1234',
  });
  const expiry = field('Expiration date', 'expiry', {
    inputmode: 'numeric',
    autocomplete: 'cc-exp',
    placeholder: 'MM / YY',
  });
  const cvc = field('Security code', 'cvc', { inputmode: 'numeric', autocomplete: 'cc-csc', placeholder: 'CVC' });
  const inputs = [number, expiry, cvc];

  const problems = (): Record<string, string> => {
    const found: Record<string, string> = {};
    const digits = number.value.replace(/\D/g, '');
    if (digits.length < 13) found.number = 'Your card number is incomplete.';
    else if (!luhn(digits)) found.number = 'Your card number is invalid.';
    const match = /^(\d{2})\s*\/?\s*(\d{2})$/.exec(expiry.value.trim());
    const now = new Date();
    if (!match) found.expiry = "Your card's expiration date is incomplete.";
    else if (Number(match[1]) < 1 || Number(match[1]) > 12) found.expiry = "Your card's expiration date is invalid.";
    else if (
      2000 + Number(match[2]) < now.getFullYear() ||
      (2000 + Number(match[2]) === now.getFullYear() && Number(match[1]) < now.getMonth() + 1)
    )
      found.expiry = "Your card's expiration year is in the past.";
    if (!/^\d{3,4}$/.test(cvc.value.trim())) found.cvc = "Your card's security code is incomplete.";
    return found;
  };
  const show = (found: Record<string, string>) => {
    for (const input of inputs) {
      document.getElementById(`${input.id}-error`)!.textContent = found[input.id] ?? '';
      input.setAttribute('aria-invalid', String(Boolean(found[input.id])));
    }
  };
  for (const input of inputs) {
    input.addEventListener('input', () =>
      tell({ kind: 'change', complete: Object.keys(problems()).length === 0, empty: inputs.every((i) => !i.value) }),
    );
  }

  window.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as {
      fake?: string;
      kind?: string;
      reply?: number;
      clientSecret?: string;
      publishableKey?: string;
    };
    if (event.source !== window.parent || data?.fake !== 'stripe' || data.kind !== 'confirm') return;
    void (async () => {
      const found = problems();
      show(found);
      const first = Object.values(found)[0];
      if (first) {
        const error: StripeError = { type: 'validation_error', code: 'incomplete', message: first };
        tell({ kind: 'confirmed', reply: data.reply, result: { error } });
        return;
      }
      const [month, year] = expiry.value.replace(/\s/g, '').split('/');
      const clientSecret = data.clientSecret ?? '';
      const body = new URLSearchParams({
        client_secret: clientSecret,
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': number.value.replace(/\D/g, ''),
        'payment_method_data[card][exp_month]': String(Number(month)),
        'payment_method_data[card][exp_year]': String(2000 + Number(year)),
        'payment_method_data[card][cvc]': cvc.value.trim(),
      });
      const res = await fetch(
        `/v1/payment_intents/${encodeURIComponent(clientSecret.split('_secret_')[0] ?? '')}/confirm`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${data.publishableKey ?? ''}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body,
        },
      );
      const answer = (await res.json()) as PaymentIntent | { error: StripeError };
      tell({
        kind: 'confirmed',
        reply: data.reply,
        result: 'error' in answer ? { error: answer.error } : { paymentIntent: answer },
      });
    })();
  });
  tell({ kind: 'ready' });
}

function challengeFrame() {
  const main = document.getElementById('fields')!;
  const heading = document.createElement('h1');
  heading.textContent = '3D Secure test page';
  const text = document.createElement('p');
  text.textContent = 'Your bank asks you to confirm this payment (fake Stripe, for tests).';
  main.append(heading, text);
  for (const [label, result] of [
    ['Complete', 'complete'],
    ['Fail', 'fail'],
  ] as const) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.addEventListener('click', () => {
      void (async () => {
        const clientSecret = params.get('secret') ?? '';
        await fetch(`/v1/payment_intents/${encodeURIComponent(clientSecret.split('_secret_')[0] ?? '')}/fake_3ds`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${params.get('key') ?? ''}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ client_secret: clientSecret, result }),
        });
        tell({ kind: 'challenge-done' });
      })();
    });
    main.append(button);
  }
}

if (window.location.pathname === '/fake/three-d-secure') challengeFrame();
else paymentElementFrame();
