import { useId, useState, type FormEvent } from 'react';
import { PAYMENT_MESSAGES, cvcLengthFor, isCardExpired, isValidCardNumber } from '@skillhive/shared/cards';

export interface CardDetails {
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

type FieldErrors = Partial<Record<'cardNumber' | 'expiry' | 'cvc', string>>;

/** "4242424242424242" → "4242 4242 4242 4242" while typing. */
function groupDigits(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1230" → "12/30" while typing. */
function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** The checks the server makes too (shared/payments), so most typos are caught before a request. */
function validate(cardNumber: string, expiry: string, cvc: string): { errors: FieldErrors; card?: CardDetails } {
  const errors: FieldErrors = {};
  const digits = cardNumber.replace(/\D/g, '');
  if (!isValidCardNumber(digits)) errors.cardNumber = PAYMENT_MESSAGES.cardNumber;
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry.trim());
  const month = match ? Number(match[1]) : NaN;
  const year = match ? 2000 + Number(match[2]) : NaN;
  if (!match || month < 1 || month > 12) errors.expiry = PAYMENT_MESSAGES.expiry;
  else if (isCardExpired(month, year, new Date())) errors.expiry = PAYMENT_MESSAGES.expired;
  const code = cvc.trim();
  if (!/^\d{3,4}$/.test(code) || (!errors.cardNumber && code.length !== cvcLengthFor(digits)))
    errors.cvc = PAYMENT_MESSAGES.cvc;
  if (Object.keys(errors).length > 0) return { errors };
  return { errors, card: { cardNumber: digits, expMonth: month, expYear: year, cvc: code } };
}

interface CardFormProps {
  /** spec §4: the Pay button stays disabled until the client secret has arrived. */
  ready: boolean;
  busy: boolean;
  amountLabel: string;
  /** The gateway's message, shown in red under the form (spec §8). */
  gatewayError: string | null;
  onPay: (card: CardDetails) => void;
}

/** The test gateway's card form: card number, expiry (MM/YY) and CVC, each labelled. */
export function CardForm({ ready, busy, amountLabel, gatewayError, onPay }: CardFormProps) {
  const id = useId();
  const [cardNumber, setCardNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(cardNumber, expiry, cvc);
    setErrors(result.errors);
    if (result.card) onPay(result.card);
  };

  const field = (name: keyof FieldErrors) => ({
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });

  return (
    <form noValidate onSubmit={submit} aria-label="Card payment" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-cardNumber`} className="font-medium">
          Card number
        </label>
        <input
          id={`${id}-cardNumber`}
          className={`input w-full font-mono ${errors.cardNumber ? 'input-error' : ''}`}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          value={cardNumber}
          onChange={(event) => setCardNumber(groupDigits(event.target.value))}
          {...field('cardNumber')}
        />
        {errors.cardNumber ? (
          <p id={`${id}-cardNumber-error`} className="text-sm font-medium text-error">
            {errors.cardNumber}
          </p>
        ) : null}
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-expiry`} className="font-medium">
            Expiry (MM/YY)
          </label>
          <input
            id={`${id}-expiry`}
            className={`input w-full font-mono ${errors.expiry ? 'input-error' : ''}`}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            value={expiry}
            onChange={(event) => setExpiry(formatExpiry(event.target.value))}
            {...field('expiry')}
          />
          {errors.expiry ? (
            <p id={`${id}-expiry-error`} className="text-sm font-medium text-error">
              {errors.expiry}
            </p>
          ) : null}
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-cvc`} className="font-medium">
            CVC
          </label>
          <input
            id={`${id}-cvc`}
            className={`input w-full font-mono ${errors.cvc ? 'input-error' : ''}`}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            value={cvc}
            onChange={(event) => setCvc(event.target.value.replace(/\D/g, '').slice(0, 4))}
            {...field('cvc')}
          />
          {errors.cvc ? (
            <p id={`${id}-cvc-error`} className="text-sm font-medium text-error">
              {errors.cvc}
            </p>
          ) : null}
        </div>
      </div>
      <button type="submit" className="btn btn-primary" disabled={!ready || busy}>
        {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
        Pay {amountLabel}
      </button>
      {gatewayError ? (
        <p role="alert" className="font-medium text-error" data-testid="payment-error">
          {gatewayError}
        </p>
      ) : null}
    </form>
  );
}
