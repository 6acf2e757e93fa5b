import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import type { ResetPasswordBody } from '@skillhive/shared/rules/auth-forms';
import { paths } from '../../../config/paths.ts';
import { errorMessage, isApiError } from '../../../lib/api-client.ts';
import { MAIL_RATE_LIMITED } from '../verify-email.ts';
import { PASSWORD_RULE_HINT, withPasswordConfirmation, type ConfirmedPassword } from '../password-confirmation.ts';
import { INVALID_RESET_TOKEN } from '../api/password-reset.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { Form } from '../../../components/ui/form-message.tsx';
import { NewPasswordFields } from '../../../components/ui/new-password-fields.tsx';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';

const resetPasswordResolver = lazyZodResolver(() =>
  import('@skillhive/shared/rules/auth-forms').then((rules) => rules.ResetPasswordBody),
);

type ResetPasswordInput = ConfirmedPassword & { token: string };

export const RESET_MESSAGES = {
  invalidLink: 'This link is invalid or has expired.',
  done: 'Your password has been changed. Every device signed in to your account has been signed out.',
} as const;

interface ResetPasswordFormProps {
  /** The token from the mail's link (?token=), or null. */
  token: string | null;
  /** Set when the server refused the link before the page opened (?error=…). */
  linkError: string | null;
  onSubmit: (body: ResetPasswordBody) => Promise<unknown>;
}

/** A message that, when it replaces the form, takes the focus, so a screen reader reads it. */
function Outcome({
  kind,
  takeFocus,
  children,
}: {
  kind: 'success' | 'error';
  takeFocus: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (takeFocus) ref.current?.focus();
  }, [takeFocus]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role={kind === 'error' ? 'alert' : 'status'}
      className={`alert ${kind === 'error' ? 'alert-error' : 'alert-success'} flex flex-col items-start gap-3`}
    >
      {children}
    </div>
  );
}

/**
 * /reset-password (decision 014): a new password, typed twice, under the spec §5
 * rule. The link works once, for an hour; a link that no longer works says so and offers a new one.
 */
export function ResetPasswordForm({ token, linkError, onSubmit }: ResetPasswordFormProps) {
  const [outcome, setOutcome] = useState<'form' | 'done' | 'invalid'>(token && !linkError ? 'form' : 'invalid');
  const [initialOutcome] = useState(outcome);
  const changed = outcome !== initialOutcome;
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordInput, unknown, ResetPasswordBody>({
    resolver: withPasswordConfirmation(resetPasswordResolver),
    defaultValues: { token: token ?? '', newPassword: '', confirmPassword: '' },
  });

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSubmit({ token: values.token, newPassword: values.newPassword });
      setOutcome('done');
    } catch (error) {
      if (isApiError(error) && error.authCode === INVALID_RESET_TOKEN) setOutcome('invalid');
      else if (isApiError(error) && error.status === 429) setFormError(MAIL_RATE_LIMITED);
      else if (isApiError(error) && error.fields?.['newPassword'])
        setError('newPassword', { type: 'server', message: error.fields['newPassword'] });
      else setFormError(errorMessage(error, 'Your password could not be changed. Please try again.'));
    }
  });

  if (outcome === 'invalid') {
    return (
      <Outcome kind="error" takeFocus={changed}>
        <p>{RESET_MESSAGES.invalidLink}</p>
        <Link to={paths.forgotPassword} className="btn btn-sm btn-outline">
          Ask for a new link
        </Link>
      </Outcome>
    );
  }
  if (outcome === 'done') {
    return (
      <Outcome kind="success" takeFocus={changed}>
        <p>{RESET_MESSAGES.done}</p>
        <Link to={paths.login} className="btn btn-sm btn-primary">
          Sign in
        </Link>
      </Outcome>
    );
  }

  const alert = formError ?? errors.root?.message;

  return (
    <Form label="Choose a new password" onSubmit={submit} onFocus={resetPasswordResolver.preload} alert={alert}>
      <NewPasswordFields
        hint={PASSWORD_RULE_HINT}
        password={{ ...register('newPassword'), error: errors.newPassword?.message }}
        confirmation={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
      />
      <BusyButton type="submit" className="btn-primary mt-2" busy={isSubmitting}>
        Change password
      </BusyButton>
    </Form>
  );
}
