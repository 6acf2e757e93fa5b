import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { ChangeEmailBody } from '@skillhive/shared/rules/account-forms';
import { ACCOUNT_MESSAGES, EMAIL_TAKEN_ERROR } from '@skillhive/shared/rules/messages';
import { errorMessage, isApiError } from '../../../lib/api-client.ts';
import { TextField } from '../../../components/ui/form-field.tsx';
import { useChangeEmail } from '../../auth/api/account.ts';
import { MAIL_RATE_LIMITED } from '../../auth/verify-email.ts';
import { Form, FormMessage } from '../../../components/ui/form-message.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { zodResolver } from '@hookform/resolvers/zod';

const changeEmailResolver = zodResolver(ChangeEmailBody);

type ChangeEmailInput = { newEmail: string; password?: string };

interface EmailSectionProps {
  email: string;
  verified: boolean;
  /** The auth feature's "verify your address" notice (shown when not verified). */
  notice?: ReactNode;
  /** ?error=… when a change-of-address link came back refused. */
  linkError: string | null;
}

/** "E-mail address" (decision 014): the address, whether it is verified, and a change. */
export function EmailSection({ email, verified, notice, linkError }: EmailSectionProps) {
  const change = useChangeEmail();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangeEmailInput, unknown, ChangeEmailBody>({
    resolver: changeEmailResolver,
    defaultValues: { newEmail: '', password: '' },
  });

  const submit = handleSubmit(async ({ newEmail, password }) => {
    setSentTo(null);
    setFormError(null);
    if (newEmail === email) {
      setError('newEmail', { type: 'validate', message: 'This is your address already' });
      return;
    }
    try {
      // An account without a password sends none; the server then wants a recent sign-in (decision 028).
      await change.mutateAsync({ newEmail, ...(password ? { password } : {}) });
      setSentTo(newEmail);
      reset({ newEmail: '', password: '' });
    } catch (error) {
      const passwordMessage = isApiError(error)
        ? error.message === ACCOUNT_MESSAGES.wrongPassword
          ? error.message
          : error.fields?.['password']
        : undefined;
      if (passwordMessage) setError('password', { type: 'server', message: passwordMessage });
      else if (isApiError(error) && error.status === 429) setFormError(error.message || MAIL_RATE_LIMITED);
      else if (isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 401)
        setError('newEmail', {
          type: 'server',
          message: error.fields?.['newEmail'] ?? error.fields?.['email'] ?? error.message,
        });
      else setFormError(errorMessage(error, 'We could not send the link. Please try again.'));
    }
  });

  const alert = formError ?? errors.root?.message;

  return (
    <div className="flex flex-col gap-4">
      {linkError ? (
        <FormMessage kind="error">
          {linkError === EMAIL_TAKEN_ERROR ? ACCOUNT_MESSAGES.changeEmailTaken : ACCOUNT_MESSAGES.changeEmailLinkFailed}
        </FormMessage>
      ) : null}
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">Your address:</span>
        <span className="break-all">{email}</span>
        {verified ? (
          <span className="badge badge-success" data-testid="email-status">
            Verified
          </span>
        ) : (
          <span className="badge badge-warning" data-testid="email-status">
            Not verified
          </span>
        )}
      </p>
      {verified ? null : notice}
      <Form label="Change e-mail" onSubmit={submit} alert={alert}>
        {sentTo ? (
          <FormMessage kind="success">We sent a link to {sentTo}. Your address changes when you follow it.</FormMessage>
        ) : null}
        <TextField
          label="New e-mail address"
          type="email"
          autoComplete="email"
          error={errors.newEmail?.message}
          {...register('newEmail')}
        />
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <BusyButton type="submit" className="btn-outline self-start" busy={isSubmitting}>
          Change e-mail
        </BusyButton>
      </Form>
    </div>
  );
}
