import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { LoginBody } from '@skillhive/shared/rules/login-form';
import { AUTH_MESSAGES } from '@skillhive/shared/rules/messages';
import { isApiError } from '../../../lib/api-client.ts';
import { TextField } from '../../../components/ui/form-field.tsx';
import { preloadAuthClient } from '../../../lib/load-auth-client.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { Form } from '../../../components/ui/form-message.tsx';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';

type LoginInput = { email: string; password: string };

const loginResolver = lazyZodResolver(() =>
  import('@skillhive/shared/rules/login-form').then((rules) => rules.LoginBody),
);

/** Wrong e-mail or password are not told apart; everything else keeps its own message. */
export function loginFailureMessage(error: unknown): string {
  if (isApiError(error)) {
    // The server's message says how long the lockout lasts.
    if (error.status === 429) return error.message || 'Too many attempts. Please wait a moment and try again.';
    if (error.status === 0) return error.message;
    if (error.status >= 500) return 'Signing in is not available right now. Please try again shortly.';
  }
  return AUTH_MESSAGES.invalidCredentials;
}

/**
 * Why a third-party sign-in sent the browser back (better-auth's ?error= code). An account whose
 * address is not verified is never joined to a provider's sign-in (account pre-hijacking).
 */
export function providerSignInFailureMessage(code: string): string {
  if (code === 'account_not_linked' || code === 'unable_to_link_account')
    return 'An account with this e-mail address already exists, and its address is not verified. Sign in with its password, verify the address from your profile, then you can use this provider too.';
  return 'Signing in with that provider did not work. Please try again.';
}

interface LoginFormProps {
  onSubmit: (values: LoginBody) => Promise<void>;
}

function preloadChecksAndClient() {
  loginResolver.preload();
  preloadAuthClient();
}

export function LoginForm({ onSubmit }: LoginFormProps) {
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput, unknown, LoginBody>({
    resolver: loginResolver,
    defaultValues: { email: '', password: '' },
  });

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSubmit(values);
    } catch (error) {
      // spec §8 only logged this; we say it, and keep what was typed.
      setFormError(loginFailureMessage(error));
    }
  });

  const alert = formError ?? errors.root?.message;

  return (
    <Form label="Sign in" onSubmit={submit} onFocus={preloadChecksAndClient} alert={alert}>
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <BusyButton type="submit" className="btn-primary mt-2" busy={isSubmitting}>
        Sign In
      </BusyButton>
    </Form>
  );
}
