import type { Stripe, StripeConstructor } from '@stripe/stripe-js';

/**
 * The part of Stripe.js the payment page uses (decision 017). Typed by `@stripe/stripe-js`, so the
 * e2e suite's local stand-in (e2e/fakes/stripe-js.ts), which implements exactly this, breaks at
 * compile time when Stripe's types change.
 */
export type StripeJs = Pick<Stripe, 'elements' | 'confirmPayment' | 'retrievePaymentIntent'>;

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

let loading: { url: string; promise: Promise<StripeConstructor> } | null = null;

/**
 * Loads Stripe.js from the address the server names (GET /api/config `payments.stripeJsUrl`:
 * Stripe's own, or a local fake in tests) once per page life. `@stripe/stripe-js`'s loader
 * would always fetch js.stripe.com, so only its types are used. A failed load is forgotten, so
 * "Try again" loads it anew.
 */
export function loadStripeJs(url: string): Promise<StripeConstructor> {
  if (loading?.url === url) return loading.promise;
  const promise = new Promise<StripeConstructor>((resolve, reject) => {
    if (window.Stripe) {
      resolve(window.Stripe);
      return;
    }
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.addEventListener('load', () => {
      if (window.Stripe) resolve(window.Stripe);
      else reject(new Error('Stripe.js loaded but did not start'));
    });
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error('Stripe.js could not be loaded'));
    });
    document.head.append(script);
  });
  loading = { url, promise };
  promise.catch(() => {
    if (loading?.promise === promise) loading = null;
  });
  return promise;
}
