import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { SignUpBody, type SignUpInput } from '@skillhive/shared/rules/auth-forms';
import { TextField } from '../../../components/ui/form-field.tsx';
import { preloadAuthClient } from '../../../lib/load-auth-client.ts';
import { PASSWORD_RULE_HINT } from '../password-confirmation.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { showSubmitError } from '../../../lib/form-errors.ts';
import { FormMessage } from '../../../components/ui/form-message.tsx';

const FIELDS = ['name', 'image', 'phone', 'email', 'password'] as const;

interface SignUpFormProps {
  onSubmit: (values: SignUpBody) => Promise<void>;
}

/** spec §5 sign-up: the shared schema's messages, written once (STYLE.md). */
export function SignUpForm({ onSubmit }: SignUpFormProps) {
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignUpInput, unknown, SignUpBody>({
    resolver: zodResolver(SignUpBody),
    defaultValues: { name: '', image: '', phone: '', email: '', password: '' },
  });

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSubmit(values);
    } catch (error) {
      setFormError(showSubmitError(error, FIELDS, setError, 'Sign-up failed. Please try again.'));
    }
  });

  return (
    <form noValidate onSubmit={submit} onFocus={preloadAuthClient} className="flex flex-col gap-4" aria-label="Sign up">
      {formError ? <FormMessage kind="error">{formError}</FormMessage> : null}
      <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Photo URL"
        type="url"
        inputMode="url"
        autoComplete="photo"
        placeholder="https://…"
        error={errors.image?.message}
        {...register('image')}
      />
      <TextField
        label="Phone"
        type="tel"
        autoComplete="tel"
        placeholder="+880 1712 345678"
        hint="11 to 20 digits; spaces and dashes are fine."
        error={errors.phone?.message}
        {...register('phone')}
      />
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_RULE_HINT}
        error={errors.password?.message}
        {...register('password')}
      />
      <BusyButton type="submit" className="btn-primary mt-2" busy={isSubmitting}>
        Sign Up
      </BusyButton>
    </form>
  );
}
