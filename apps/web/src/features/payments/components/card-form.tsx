import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CardFormBody, type CardDetails, type CardFormInput } from '@skillhive/shared/rules/card-form';
import { TextField } from '../../../components/ui/form-field.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';

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

const onlyDigits = (value: string) => value.replace(/\D/g, '').slice(0, 4);

/** A registered input whose typed text is reshaped (grouped digits, "MM/YY") before the form reads it. */
function reshaped(field: UseFormRegisterReturn, format: (value: string) => string): UseFormRegisterReturn {
  return {
    ...field,
    onChange: (event) => {
      const input = event.target as HTMLInputElement;
      input.value = format(input.value);
      return field.onChange(event);
    },
  };
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

/**
 * The test gateway's card form through the shared CardFormBody, which checks what the gateway
 * checks (so most typos are caught before a request): card number, expiry (MM/YY) and CVC.
 */
export function CardForm({ ready, busy, amountLabel, gatewayError, onPay }: CardFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CardFormInput, unknown, CardDetails>({
    resolver: zodResolver(CardFormBody),
    defaultValues: { cardNumber: '', expiry: '', cvc: '' },
  });

  return (
    <form noValidate onSubmit={handleSubmit(onPay)} aria-label="Card payment" className="flex flex-col gap-4">
      <TextField
        label="Card number"
        className="font-mono"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        error={errors.cardNumber?.message}
        {...reshaped(register('cardNumber'), groupDigits)}
      />
      <div className="grid grid-cols-2 gap-3">
        <div className="min-w-0">
          <TextField
            label="Expiry (MM/YY)"
            className="font-mono"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            error={errors.expiry?.message}
            {...reshaped(register('expiry'), formatExpiry)}
          />
        </div>
        <div className="min-w-0">
          <TextField
            label="CVC"
            className="font-mono"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            error={errors.cvc?.message}
            {...reshaped(register('cvc'), onlyDigits)}
          />
        </div>
      </div>
      <BusyButton type="submit" className="btn-primary" busy={busy} disabled={!ready}>
        Pay {amountLabel}
      </BusyButton>
      {gatewayError ? (
        <p role="alert" className="font-medium text-error" data-testid="payment-error">
          {gatewayError}
        </p>
      ) : null}
    </form>
  );
}
