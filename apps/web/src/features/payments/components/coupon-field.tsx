import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PaymentIntentResponse } from '@skillhive/shared/contracts/payments';
import { COUPON_CODE_INPUT, COUPON_MESSAGES } from '@skillhive/shared/rules/coupons';
import { centsToDecimal, formatPrice } from '@skillhive/shared/rules/money';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import type { UserScope } from '../../../lib/query-client.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { paymentIntentQueryOptions } from '../api/payments.ts';

const money = (cents: number) => formatPrice(centsToDecimal(cents));

/** The message of a refused code (the server puts it on `fields.couponCode`), or null for other errors. */
export function couponRefusalOf(error: unknown): string | null {
  return error instanceof ApiError ? (error.fields?.couponCode ?? null) : null;
}

interface CouponFieldProps {
  user: UserScope | null;
  /** The payable lines the intent covers (their titles name the discounts). */
  items: readonly { _id: string; title: string }[];
  /** The code applied now, or null. */
  couponCode: string | null;
  /** The intent priced with `couponCode` (its lines carry the discounts), while it is loaded. */
  intent: PaymentIntentResponse | undefined;
  /** The intent's error: a code refused after it was applied (used up meanwhile) is shown here. */
  intentError: unknown;
  disabled: boolean;
  onChange: (code: string | null) => void;
}

/**
 * The payment page's coupon (decision 019): a code is checked by asking the server for the cart
 * priced with it (POST /api/create-payment-intent with couponCode) before it is applied, so a
 * refused code shows its message here and the student keeps the total they had. Once applied, the
 * discount of each line and the subtotal are listed above the page's total.
 */
export function CouponField({ user, items, couponCode, intent, intentError, disabled, onChange }: CouponFieldProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const cartIds = items.map((item) => item._id);
  const refusedLater = couponCode ? couponRefusalOf(intentError) : null;
  const shownError = error ?? refusedLater;

  const apply = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = draft.trim();
    if (!COUPON_CODE_INPUT.test(code)) {
      setError(code ? COUPON_MESSAGES.codeFormat : 'Enter a coupon code');
      return;
    }
    setError(null);
    setChecking(true);
    try {
      // Kept a little while so the page's query for the same key finds it instead of asking again.
      await queryClient.fetchQuery({ ...paymentIntentQueryOptions(user, cartIds, code), gcTime: 30_000 });
      onChange(code);
      setDraft('');
    } catch (failure) {
      setError(couponRefusalOf(failure) ?? errorMessage(failure, 'The coupon could not be checked. Please try again.'));
    } finally {
      setChecking(false);
    }
  };

  const remove = () => {
    setError(null);
    onChange(null);
  };

  const titleOf = (lineId: string) => items.find((item) => item._id === lineId)?.title ?? 'A class';
  const discounted = intent?.coupon ? intent.lines.filter((line) => line.discountCents > 0) : [];

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-2 rounded-box bg-base-200 p-3">
      <h3 id={`${id}-heading`} className="font-semibold">
        Coupon
      </h3>
      {couponCode ? (
        <div className="flex flex-wrap items-center gap-2">
          <p role="status">
            Coupon <strong data-testid="applied-coupon">{couponCode.toUpperCase()}</strong> applied
          </p>
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            disabled={disabled}
            aria-label={`Remove the coupon ${couponCode.toUpperCase()}`}
            onClick={remove}
          >
            Remove
          </button>
        </div>
      ) : (
        <form onSubmit={(event) => void apply(event)} noValidate className="flex flex-wrap items-end gap-2">
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <label htmlFor={`${id}-code`} className="text-sm font-medium">
              Coupon code
            </label>
            <input
              id={`${id}-code`}
              name="couponCode"
              className={`input input-sm w-full ${shownError ? 'input-error' : ''}`}
              value={draft}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={40}
              disabled={disabled}
              aria-invalid={shownError ? true : undefined}
              aria-describedby={shownError ? `${id}-error` : undefined}
              onChange={(event) => setDraft(event.target.value)}
            />
          </div>
          <BusyButton type="submit" className="btn-sm btn-outline" busy={checking} disabled={disabled}>
            Apply
          </BusyButton>
        </form>
      )}
      {shownError ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-error">
          {shownError}
        </p>
      ) : null}
      {intent?.coupon && discounted.length > 0 ? (
        <dl className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm" data-testid="coupon-discounts">
          <dt>Subtotal</dt>
          <dd className="text-right">{money(intent.subtotalCents)}</dd>
          {discounted.map((line) => (
            <div key={line._id} className="contents">
              <dt className="break-words">{titleOf(line._id)}</dt>
              <dd className="text-right whitespace-nowrap">−{money(line.discountCents)}</dd>
            </div>
          ))}
          <dt className="font-medium">Discount</dt>
          <dd className="text-right font-medium" data-testid="coupon-discount">
            −{money(intent.discountCents)}
          </dd>
        </dl>
      ) : null}
    </section>
  );
}
