import { useState } from 'react';
import type { CardDetails } from '@skillhive/shared/rules/card-form';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { authenticateTestCard, confirmTestCard, type GatewayResult } from '../api/payments.ts';
import { CardForm } from './card-form.tsx';
import type { GatewayPanelProps } from './gateway-panel.ts';

type Step = 'card' | 'confirming' | 'authenticate';

/**
 * The built-in test gateway (DESIGN §2): our card form, confirmed by POST /api/test-gateway/confirm,
 * and its stand-in for a 3-D Secure check (card 4000 0025 0000 3155). Loaded only on a deployment
 * without Stripe, so react-hook-form is not in the payment page's first load.
 */
export default function TestGatewayPanel({
  clientSecret,
  amountLabel,
  ready,
  recording,
  pageError,
  onBusyChange,
  onSucceeded,
  onStale,
}: GatewayPanelProps) {
  const [step, setStepState] = useState<Step>('card');
  const [gatewayError, setGatewayError] = useState<string | null>(null);

  const setStep = (next: Step) => {
    setStepState(next);
    onBusyChange(next !== 'card');
  };

  const handleResult = (result: GatewayResult) => {
    if (result.status === 'requires_action') {
      setStep('authenticate');
      return;
    }
    setStep('card');
    if (result.status === 'succeeded' && result.transactionId) {
      onSucceeded(result.transactionId);
      return;
    }
    setGatewayError('The payment could not be completed. Please try another card.');
  };

  const pay = async (card: CardDetails) => {
    if (!clientSecret) return;
    setGatewayError(null);
    setStep('confirming');
    try {
      handleResult(await confirmTestCard({ clientSecret, ...card }));
    } catch (error) {
      setGatewayError(errorMessage(error, 'Your card was declined.'));
      setStep('card');
      // Another tab's checkout replaced this payment, or the cart changed: start from the server's view.
      if (error instanceof ApiError && error.status === 409) onStale();
    }
  };

  const authenticate = async (approve: boolean) => {
    if (!clientSecret) return;
    setGatewayError(null);
    setStep('confirming');
    try {
      handleResult(await authenticateTestCard({ clientSecret, approve }));
    } catch (error) {
      setGatewayError(errorMessage(error, 'Authentication failed.'));
      setStep('card');
    }
  };

  if (step === 'authenticate') {
    return (
      <div className="flex flex-col gap-3" role="group" aria-labelledby="auth-heading">
        <h3 id="auth-heading" className="font-semibold">
          Your bank asks you to confirm this payment
        </h3>
        <p className="text-muted">This is the test gateway's stand-in for a 3-D Secure check.</p>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-primary" onClick={() => void authenticate(true)}>
            Approve
          </button>
          <button type="button" className="btn btn-outline" onClick={() => void authenticate(false)}>
            Fail
          </button>
        </div>
      </div>
    );
  }
  return (
    <>
      <p className="text-sm text-muted">Test mode: use 4242 4242 4242 4242, any future date and any CVC.</p>
      <CardForm
        ready={ready}
        busy={step === 'confirming' || recording}
        amountLabel={amountLabel}
        gatewayError={gatewayError ?? pageError}
        onPay={(card) => void pay(card)}
      />
    </>
  );
}
