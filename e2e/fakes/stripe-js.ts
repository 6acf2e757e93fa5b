/**
 * A local stand-in for Stripe.js (decision 017), served by the e2e suite's fake Stripe
 * (fixtures/stripe.ts) as a classic script at the STRIPE_JS_URL the server under test is given.
 * It implements what the payment page calls — `Stripe(key)` → `elements({clientSecret})` →
 * `create('payment')` → `mount()` / `on('ready')` / `destroy()`, `confirmPayment()` and
 * `retrievePaymentIntent()` — typed by @stripe/stripe-js, so a change in Stripe's types breaks
 * it at compile time. Like the real one, the card fields live in an iframe of Stripe's origin
 * (stripe-frames.ts), which sends the card to the (fake) API itself; 3-D Secure opens a challenge
 * frame over the page. Never part of the built web app.
 */
import type {
  ConfirmPaymentData,
  PaymentIntent,
  PaymentIntentResult,
  Stripe,
  StripeConstructor,
  StripeElements,
  StripeElementsOptionsClientSecret,
  StripeError,
  StripePaymentElement,
  StripePaymentElementOptions,
} from '@stripe/stripe-js';

/** What the payment page uses of Stripe.js (apps/web/src/features/payments/stripe/load-stripe-js.ts). */
type StripeJs = Pick<Stripe, 'elements' | 'confirmPayment' | 'retrievePaymentIntent'>;

/** Messages between this script and its frames (stripe-frames.ts). */
type FrameMessage =
  | { fake: 'stripe'; kind: 'ready'; frame: string }
  | { fake: 'stripe'; kind: 'change'; frame: string; complete: boolean; empty: boolean }
  | {
      fake: 'stripe';
      kind: 'confirmed';
      frame: string;
      reply: number;
      result: { paymentIntent?: PaymentIntent; error?: StripeError };
    }
  | { fake: 'stripe'; kind: 'challenge-done'; frame: string };

const ORIGIN = new URL((document.currentScript as HTMLScriptElement).src).origin;

function isFrameMessage(event: MessageEvent): event is MessageEvent<FrameMessage> {
  return event.origin === ORIGIN && typeof event.data === 'object' && event.data?.fake === 'stripe';
}

/** Messages from one frame, by its name. */
function listen(frame: string, handler: (message: FrameMessage) => void): () => void {
  const onMessage = (event: MessageEvent) => {
    if (isFrameMessage(event) && event.data.frame === frame) handler(event.data);
  };
  window.addEventListener('message', onMessage);
  return () => window.removeEventListener('message', onMessage);
}

let frames = 0;

interface FakePaymentElement {
  element: StripePaymentElement;
  /** Asks the card frame to confirm the intent with what was typed. */
  confirm(
    clientSecret: string,
    publishableKey: string,
  ): Promise<{ paymentIntent?: PaymentIntent; error?: StripeError }>;
}

const paymentElements = new WeakMap<object, FakePaymentElement>();
/** The client secret each `elements()` group was made for. */
const secrets = new WeakMap<object, string>();

function createPaymentElement(
  clientSecret: string,
  options: StripePaymentElementOptions | undefined,
): FakePaymentElement {
  const name = `fake-stripe-frame-${++frames}`;
  const handlers = new Map<string, ((event: unknown) => unknown)[]>();
  let iframe: HTMLIFrameElement | null = null;
  let stopListening: (() => void) | null = null;
  let replies = 0;
  const emit = (type: string, event: unknown) => handlers.get(type)?.forEach((handler) => handler(event));

  const element = {
    mount(target: string | HTMLElement) {
      const host = typeof target === 'string' ? document.querySelector<HTMLElement>(target) : target;
      if (!host) throw new Error('fake Stripe.js: nothing to mount the Payment Element in');
      iframe = document.createElement('iframe');
      iframe.name = name;
      iframe.title = 'Secure payment input frame';
      iframe.src = `${ORIGIN}/fake/elements/payment?frame=${name}&layout=${typeof options?.layout === 'string' ? options.layout : 'tabs'}`;
      iframe.style.cssText = 'width:100%;height:16rem;border:0;display:block';
      stopListening = listen(name, (message) => {
        if (message.kind === 'ready') emit('ready', { elementType: 'payment' });
        if (message.kind === 'change')
          emit('change', {
            elementType: 'payment',
            complete: message.complete,
            empty: message.empty,
            collapsed: false,
            value: { type: 'card' },
          });
      });
      host.append(iframe);
    },
    on(type: string, handler: (event: never) => unknown) {
      handlers.set(type, [...(handlers.get(type) ?? []), handler as (event: unknown) => unknown]);
      return element as unknown as StripePaymentElement;
    },
    unmount() {
      stopListening?.();
      iframe?.remove();
      iframe = null;
    },
    destroy() {
      element.unmount();
      handlers.clear();
    },
  } satisfies Pick<StripePaymentElement, 'mount' | 'unmount' | 'destroy'> & { on: unknown };

  return {
    element: element as unknown as StripePaymentElement,
    confirm(secret, publishableKey) {
      const frame = iframe?.contentWindow;
      if (!frame) return Promise.reject(new Error('fake Stripe.js: the Payment Element is not mounted'));
      const reply = ++replies;
      return new Promise((resolve) => {
        const stop = listen(name, (message) => {
          if (message.kind !== 'confirmed' || message.reply !== reply) return;
          stop();
          resolve(message.result);
        });
        frame.postMessage({ fake: 'stripe', kind: 'confirm', reply, clientSecret: secret, publishableKey }, ORIGIN);
      });
    },
  };
}

function intentIdOf(clientSecret: string): string {
  return clientSecret.split('_secret_')[0] ?? '';
}

async function retrieve(publishableKey: string, clientSecret: string): Promise<PaymentIntentResult> {
  const res = await fetch(
    `${ORIGIN}/v1/payment_intents/${encodeURIComponent(intentIdOf(clientSecret))}?client_secret=${encodeURIComponent(clientSecret)}`,
    { headers: { authorization: `Bearer ${publishableKey}` } },
  );
  const body = (await res.json()) as PaymentIntent | { error: StripeError };
  return 'error' in body ? { error: body.error } : { paymentIntent: body };
}

/** Stripe's 3-D Secure dialog: a challenge frame of the bank (here: Complete / Fail) over the page. */
function challenge(publishableKey: string, clientSecret: string): Promise<void> {
  const name = `fake-stripe-challenge-${++frames}`;
  const overlay = document.createElement('div');
  overlay.style.cssText =
    'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center';
  const iframe = document.createElement('iframe');
  iframe.name = name;
  iframe.title = '3D Secure authentication';
  const query = new URLSearchParams({ frame: name, key: publishableKey, secret: clientSecret });
  iframe.src = `${ORIGIN}/fake/three-d-secure?${query}`;
  iframe.style.cssText = 'width:min(26rem,95vw);height:18rem;border:0;background:#fff;border-radius:.5rem';
  overlay.append(iframe);
  document.body.append(overlay);
  return new Promise((resolve) => {
    const stop = listen(name, (message) => {
      if (message.kind !== 'challenge-done') return;
      stop();
      overlay.remove();
      resolve();
    });
  });
}

function createStripe(publishableKey: string): StripeJs {
  const stripe: StripeJs = {
    elements: ((options: StripeElementsOptionsClientSecret) => {
      const clientSecret = options.clientSecret ?? '';
      const elements = {
        create(type: 'payment', elementOptions?: StripePaymentElementOptions) {
          if (type !== 'payment')
            throw new Error(`fake Stripe.js: only the Payment Element is faked, not ${String(type)}`);
          const created = createPaymentElement(clientSecret, elementOptions);
          paymentElements.set(elements, created);
          return created.element;
        },
      } satisfies { create: (type: 'payment', options?: StripePaymentElementOptions) => StripePaymentElement };
      secrets.set(elements, clientSecret);
      return elements as unknown as StripeElements;
    }) as Stripe['elements'],

    confirmPayment: (async (options: {
      elements: StripeElements;
      confirmParams?: Partial<ConfirmPaymentData>;
      redirect?: 'always' | 'if_required';
    }): Promise<PaymentIntentResult> => {
      const created = paymentElements.get(options.elements);
      if (!created) throw new Error('fake Stripe.js: confirmPayment needs the elements of a mounted Payment Element');
      const clientSecret = secrets.get(options.elements) ?? '';
      let result = await created.confirm(clientSecret, publishableKey);
      if (result.paymentIntent?.status === 'requires_action') {
        await challenge(publishableKey, clientSecret);
        const after = await retrieve(publishableKey, clientSecret);
        const intent = after.paymentIntent;
        result =
          intent?.status === 'requires_payment_method' && intent.last_payment_error
            ? {
                error: {
                  type: 'invalid_request_error',
                  code: 'payment_intent_authentication_failure',
                  message: intent.last_payment_error.message,
                  payment_intent: intent,
                },
              }
            : after;
      }
      // Cards never redirect; a redirect-based method would go to return_url with Stripe's parameters.
      if (options.redirect !== 'if_required' && result.paymentIntent && options.confirmParams?.return_url) {
        const url = new URL(options.confirmParams.return_url);
        url.searchParams.set('payment_intent', result.paymentIntent.id);
        url.searchParams.set('payment_intent_client_secret', clientSecret);
        url.searchParams.set('redirect_status', result.paymentIntent.status === 'succeeded' ? 'succeeded' : 'failed');
        window.location.assign(url.href);
        return new Promise<PaymentIntentResult>(() => {});
      }
      return result.error ? { error: result.error } : { paymentIntent: result.paymentIntent! };
    }) as Stripe['confirmPayment'],

    retrievePaymentIntent: (clientSecret: string) => retrieve(publishableKey, clientSecret),
  };
  return stripe;
}

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

window.Stripe = ((publishableKey: string) => createStripe(publishableKey) as Stripe) as StripeConstructor;
