import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { PaymentIntent, StripeElements, StripeError } from '@stripe/stripe-js';
import { paths } from '../../../config/paths.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { loadStripeJs, type StripeJs } from '../stripe/load-stripe-js.ts';
import type { GatewayPanelProps } from './gateway-panel.ts';

/** Query parameters Stripe adds to `return_url` after a redirect-based payment method. */
const RETURN_PARAMS = ['payment_intent', 'payment_intent_client_secret', 'redirect_status'] as const;

const FAILED = 'Your payment could not be completed. Please try again or use another payment method.';
const PROCESSING =
  'Your payment is being processed. Your classes will show as paid in My Enrolled Classes as soon as your bank confirms it.';

/**
 * Stripe's Payment Element (decision 017): the card fields live in Stripe's frames, so card
 * details never reach our page or server. The intent was created by our server for the cart;
 * confirmPayment settles cards here (3-D Secure in Stripe's own dialog) and redirects only for
 * methods that need it, to this page, which then resumes from `payment_intent_client_secret`.
 * A charge nobody records here (the tab was closed) is fulfilled by the webhook.
 */
export default function StripePanel({
  clientSecret,
  amountLabel,
  ready,
  recording,
  pageError,
  stripe: config,
  onBusyChange,
  onSucceeded,
}: GatewayPanelProps) {
  const [stripe, setStripe] = useState<StripeJs | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [loadAttempt, setLoadAttempt] = useState(0);
  const [elements, setElements] = useState<StripeElements | null>(null);
  const [elementReady, setElementReady] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [params, setParams] = useSearchParams();
  const returnedSecret = params.get('payment_intent_client_secret');
  const [resuming, setResuming] = useState(Boolean(returnedSecret));
  const mountPoint = useRef<HTMLDivElement>(null);
  const publishableKey = config?.publishableKey;
  const scriptUrl = config?.scriptUrl;

  useEffect(() => {
    if (!publishableKey || !scriptUrl) return;
    let live = true;
    loadStripeJs(scriptUrl).then(
      (Stripe) => {
        if (live) setStripe(Stripe(publishableKey));
      },
      () => {
        if (live) setLoadFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [publishableKey, scriptUrl, loadAttempt]);

  /** Where a payment ended, as Stripe reports it. */
  const settle = (paymentIntent: PaymentIntent | undefined, error: StripeError | undefined) => {
    if (error) {
      setMessage(error.message ?? FAILED);
      return;
    }
    if (paymentIntent?.status === 'succeeded') {
      onSucceeded(paymentIntent.id);
      return;
    }
    if (paymentIntent?.status === 'processing') {
      setNotice(PROCESSING);
      return;
    }
    setMessage(paymentIntent?.last_payment_error?.message ?? FAILED);
  };

  // Back from a redirect (return_url): ask Stripe how that payment ended, then forget the
  // parameters. Once the page has its intent (`ready`), so a success can be recorded at once.
  useEffect(() => {
    if (!stripe || !returnedSecret || !ready) return;
    let live = true;
    stripe.retrievePaymentIntent(returnedSecret).then(
      ({ paymentIntent, error }) => {
        if (!live) return;
        setParams(
          (current) => {
            for (const name of RETURN_PARAMS) current.delete(name);
            return current;
          },
          { replace: true },
        );
        setResuming(false);
        settle(paymentIntent, error);
      },
      () => {
        if (!live) return;
        setResuming(false);
        setMessage(FAILED);
      },
    );
    return () => {
      live = false;
    };
    // settle and setParams are read at the time Stripe answers; the secret is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stripe, returnedSecret, ready]);

  // One Payment Element per intent: a renewed intent (the cart changed) mounts a new one.
  useEffect(() => {
    const target = mountPoint.current;
    if (!stripe || !clientSecret || resuming || !target) return;
    const created = stripe.elements({ clientSecret, appearance: { theme: 'stripe' } });
    const element = created.create('payment', { layout: 'tabs' });
    element.on('ready', () => setElementReady(true));
    element.mount(target);
    setElements(created);
    return () => {
      element.destroy();
      setElements(null);
      setElementReady(false);
    };
  }, [stripe, clientSecret, resuming]);

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setMessage(null);
    setNotice(null);
    setConfirming(true);
    onBusyChange(true);
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: new URL(paths.dashboard.payment, window.location.origin).href },
        redirect: 'if_required',
      });
      settle(paymentIntent, error);
    } catch {
      setMessage(FAILED);
    } finally {
      setConfirming(false);
      onBusyChange(false);
    }
  };

  if (!config) {
    return (
      <p role="alert" className="rounded-box bg-base-200 p-4">
        Card payments are handled by Stripe, but this server did not say how to reach it. Please try again later.
      </p>
    );
  }
  if (loadFailed) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-4">
        <p>Stripe's secure card form could not be loaded. Check your connection and try again.</p>
        <button
          type="button"
          className="btn btn-outline btn-sm"
          onClick={() => {
            setLoadFailed(false);
            setLoadAttempt((n) => n + 1);
          }}
        >
          Try again
        </button>
      </div>
    );
  }
  const error = message ?? pageError;
  return (
    <form onSubmit={(event) => void pay(event)} aria-label="Card payment" className="flex flex-col gap-4">
      {resuming ? (
        <p role="status" className="text-muted">
          Checking your payment with Stripe…
        </p>
      ) : null}
      {!elementReady && !resuming ? (
        <p role="status" className="text-muted">
          Loading Stripe's secure card form…
        </p>
      ) : null}
      <div ref={mountPoint} data-testid="stripe-payment-element" className="min-h-4" />
      <BusyButton
        type="submit"
        className="btn-primary"
        busy={confirming || recording}
        disabled={!ready || !elementReady || Boolean(notice)}
      >
        Pay {amountLabel}
      </BusyButton>
      {notice ? (
        <p role="status" className="rounded-box bg-base-200 p-3" data-testid="payment-notice">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="font-medium text-error" data-testid="payment-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
