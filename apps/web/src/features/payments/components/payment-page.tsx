import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { notify } from '../../../lib/toast.ts';
import { centsToDecimal, formatPrice } from '@skillhive/shared/rules/money';
import type { Enrollment } from '@skillhive/shared/contracts/enrollments';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { paths } from '../../../config/paths.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { SESSION_QUERY_KEY } from '../../auth/api/get-session.ts';
import { useAppConfig } from '../../auth/api/get-app-config.ts';
import { isEmailNotVerified, verifyEmailMessage } from '../../auth/verify-email.ts';
import { cartQueryOptions, useRemoveEnrollment } from '../../enrollments/api/enrollments.ts';
import { paymentIntentQueryOptions, useRecordPayment } from '../api/payments.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';
import type { GatewayPanelProps } from './gateway-panel.ts';
import { ClassRow } from '../../../components/ui/class-row.tsx';
import { CouponField } from './coupon-field.tsx';
import { countOf } from '../../../lib/plural.ts';

/**
 * The card area, one lazy chunk per gateway (decision 017): a test-gateway deployment never
 * downloads Stripe's code, a Stripe one never downloads our card form (nor react-hook-form).
 */
const TestGatewayPanel = lazy(() => import('./test-gateway-panel.tsx'));
const StripePanel = lazy(() => import('./stripe-panel.tsx'));

function GatewayPanel({ gateway, ...props }: GatewayPanelProps & { gateway: 'test' | 'stripe' }) {
  const Panel = gateway === 'stripe' ? StripePanel : TestGatewayPanel;
  return (
    <Suspense
      fallback={
        <p role="status" className="text-muted">
          Loading the card form…
        </p>
      }
    >
      <Panel {...props} />
    </Suspense>
  );
}

/**
 * What a failed total says: the server's own sentence for a refusal (a 4xx names the reason), a
 * plain one when the server or the network failed — never a bare "Internal Server Error".
 */
export function totalFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message) return error.message;
  return 'We could not work out your total just now. Nothing was charged — please try again in a moment.';
}

/** A 409: the payment or the cart changed on the server (another tab, a class withdrawn). */
function isStateConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}

type Step = 'card' | 'recording' | 'done';

interface PaymentPageProps {
  /** The auth feature's notice for an unverified address: paying needs a verified one (decision 014). */
  emailNotice?: ReactNode;
}

/**
 * payment (spec §2, §4): the cart of pending enrollments, the server's total, and the gateway's
 * card form. Flow: intent (server total) → the panel confirms the card [and 3-D Secure] →
 * record payment → myEnrollClass.
 */
export function PaymentPage({ emailNotice }: PaymentPageProps) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const email = user?.email ?? '';
  const navigate = useNavigate();
  const cart = useQuery(cartQueryOptions(user));
  const [step, setStep] = useState<Step>('card');
  // The panel is confirming a card or waiting for 3-D Secure: the cart stays as it is meanwhile.
  const [panelBusy, setPanelBusy] = useState(false);
  const config = useAppConfig();
  // Back from a redirect-based payment (Stripe's return_url) with nothing left to pay: the
  // webhook recorded it before the page came back.
  const [searchParams, setSearchParams] = useSearchParams();
  const returnedPaid = searchParams.get('redirect_status') === 'succeeded';
  const items = cart.data ?? [];
  // A line of a class that was deleted or is no longer accepted cannot be paid (decision 010):
  // it is shown, marked, removable, and left out of the total.
  const payable = items.filter((item) => item.available);
  const cartIds = payable.map((item) => item._id);
  // The applied code lives in the address (replacing the entry), so Back and Forward keep it.
  const couponCode = searchParams.get('coupon') || null;
  const setCouponCode = (code: string | null) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (code) next.set('coupon', code);
        else next.delete('coupon');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  const intent = useQuery({
    ...paymentIntentQueryOptions(user, cartIds, couponCode),
    enabled: cart.isSuccess && payable.length > 0 && step !== 'done',
  });
  const remove = useRemoveEnrollment();
  const record = useRecordPayment();
  const [recordError, setRecordError] = useState<string | null>(null);
  const [transactionId, setTransactionId] = useState<string | null>(null);

  const needsVerifiedEmail = isEmailNotVerified(intent.error);
  // The session may predate a change of address: let the notice catch up with the server.
  useEffect(() => {
    if (needsVerifiedEmail) void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
  }, [needsVerifiedEmail, queryClient]);

  const clientSecret = intent.data?.clientSecret ?? null;
  const amount = intent.data ? centsToDecimal(intent.data.amount) : null;

  const recordPayment = (txId: string) => {
    if (amount === null || !intent.data) return;
    // The enrollments the server's total covers: exactly these are recorded as paid.
    const paidIds = intent.data.cartIds ?? cartIds;
    setStep('recording');
    record.mutate(
      {
        email,
        price: amount,
        transactionId: txId,
        data: new Date().toISOString(),
        cartIds: paidIds,
        // DESIGN §1.8: the enrolled class ids.
        menuItemIds: items.filter((item) => paidIds.includes(item._id)).map((item) => item.enrollId),
        status: 'pending',
      },
      {
        onSuccess: (result) => {
          if (!result?.paymentResult?.insertedId) {
            setRecordError('Your payment went through, but we could not confirm it. Please try again.');
            setStep('card');
            return;
          }
          setStep('done');
          notify.success('Payment successful! Enjoy your classes.');
          navigate(paths.dashboard.myEnrollClass);
        },
        onError: (error) => {
          setStep('card');
          if (isStateConflict(error)) {
            // The server refunded a charge it could not record (decision 010): say so, show the cart anew.
            setRecordError(errorMessage(error));
            setTransactionId(null);
            reloadCartAndIntent();
            return;
          }
          setRecordError(`Your card was charged, but recording the payment failed: ${errorMessage(error)}`);
        },
      },
    );
  };

  const reloadCartAndIntent = () => {
    void cart.refetch();
    void intent.refetch();
  };

  const handleSucceeded = (txId: string) => {
    setRecordError(null);
    setTransactionId(txId);
    recordPayment(txId);
  };

  const removeItem = (item: Enrollment) =>
    remove.mutate(item._id, {
      onSuccess: () => notify.success(`"${item.title}" was removed from your cart.`),
      onError: (error) => notify.error(errorMessage(error)),
    });

  return (
    <div className="flex flex-col gap-6">
      <title>Payment — SkillHive</title>
      <h1 className="text-2xl font-bold sm:text-3xl">Payment</h1>
      {emailNotice}
      {cart.isPending ? (
        <LoadingState />
      ) : cart.isError ? (
        <FetchError what="your cart" error={cart.error} onRetry={() => void cart.refetch()} />
      ) : items.length === 0 ? (
        step === 'done' ? (
          <p role="status">Payment successful! Taking you to your classes…</p>
        ) : returnedPaid ? (
          <div role="status" className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-6">
            <p>Payment successful! Your classes are paid for.</p>
            <Link to={paths.dashboard.myEnrollClass} className="btn btn-primary">
              My Enrolled Classes
            </Link>
          </div>
        ) : (
          <div className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-6">
            <p>Your cart is empty.</p>
            <Link to={paths.allClasses} className="btn btn-primary">
              Browse classes
            </Link>
          </div>
        )
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
          <section aria-labelledby="cart-heading" className="flex flex-col gap-3">
            <h2 id="cart-heading" className="text-xl font-semibold">
              Your cart ({items.length})
            </h2>
            <ul className="flex flex-col gap-2">
              {items.map((item) => (
                <ClassRow
                  key={item._id}
                  item={item}
                  note={
                    item.available ? null : (
                      <p className="text-sm font-medium text-error" data-testid="cart-line-unavailable">
                        {PAYMENT_MESSAGES.classUnavailable}: it is not part of the total, and you can remove it.
                      </p>
                    )
                  }
                >
                  <button
                    type="button"
                    className="btn btn-sm btn-ghost text-error"
                    disabled={remove.isPending || step !== 'card' || panelBusy}
                    aria-label={`Remove ${item.title} from the cart`}
                    onClick={() => removeItem(item)}
                  >
                    Remove
                  </button>
                </ClassRow>
              ))}
            </ul>
            {payable.length > 0 && !needsVerifiedEmail ? (
              <CouponField
                user={user}
                items={payable}
                couponCode={couponCode}
                intent={intent.data}
                intentError={intent.error}
                disabled={step !== 'card'}
                onChange={setCouponCode}
              />
            ) : null}
            <p className="text-lg">
              Total:{' '}
              <strong data-testid="payment-total">
                {intent.isPending ? 'Calculating...' : amount !== null ? formatPrice(amount) : '—'}
              </strong>
            </p>
            {amount !== null && intent.data ? (
              <p className="text-muted" data-testid="charge-summary">
                Paying charges your card {formatPrice(amount)} once, for{' '}
                {countOf((intent.data.cartIds ?? cartIds).length, 'class', 'classes')} of this cart.
              </p>
            ) : null}
          </section>

          <section
            aria-labelledby="card-heading"
            className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm"
          >
            <h2 id="card-heading" className="text-xl font-semibold">
              Pay by card
            </h2>
            {payable.length === 0 ? (
              <p role="status" className="rounded-box bg-base-200 p-4">
                No class in your cart can be paid for: {PAYMENT_MESSAGES.classUnavailable.toLowerCase()}. Remove it and
                browse other classes.
              </p>
            ) : needsVerifiedEmail ? (
              <p role="alert" className="rounded-box bg-base-200 p-4 font-medium">
                {verifyEmailMessage(email)}
              </p>
            ) : intent.isError ? (
              <div role="alert" className="flex flex-col items-start gap-3 rounded-box border border-error/40 p-4">
                <p className="font-medium text-error" data-testid="total-error">
                  {totalFailureMessage(intent.error)}
                </p>
                <button type="button" className="btn btn-sm btn-outline" onClick={() => void intent.refetch()}>
                  Try again
                </button>
              </div>
            ) : config.isPending ? (
              <LoadingState />
            ) : config.isError ? (
              <FetchError what="the payment settings" error={config.error} onRetry={() => void config.refetch()} />
            ) : (
              <>
                <GatewayPanel
                  gateway={config.data.payments.gateway}
                  clientSecret={clientSecret}
                  amountLabel={amount !== null ? formatPrice(amount) : ''}
                  ready={Boolean(clientSecret) && !intent.isFetching}
                  recording={step === 'recording'}
                  pageError={recordError}
                  stripe={
                    config.data.payments.publishableKey && config.data.payments.stripeJsUrl
                      ? {
                          publishableKey: config.data.payments.publishableKey,
                          scriptUrl: config.data.payments.stripeJsUrl,
                        }
                      : null
                  }
                  onBusyChange={setPanelBusy}
                  onSucceeded={handleSucceeded}
                  onStale={reloadCartAndIntent}
                />
                {transactionId && step === 'card' && recordError ? (
                  <button
                    type="button"
                    className="btn btn-outline btn-sm self-start"
                    onClick={() => recordPayment(transactionId)}
                  >
                    Try recording the payment again
                  </button>
                ) : null}
              </>
            )}
          </section>
        </div>
      )}
    </div>
  );
}
