import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { RequestPasswordResetBody } from '@skillhive/shared/rules/auth-forms';
import { TextField } from '../../../components/ui/form-field.tsx';
import { mailRequestFailureMessage } from '../verify-email.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { Form } from '../../../components/ui/form-message.tsx';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';

const forgotPasswordResolver = lazyZodResolver(() =>
  import('@skillhive/shared/rules/auth-forms').then((rules) => rules.RequestPasswordResetBody),
);

type ForgotPasswordInput = { email: string };

/** The same words whether or not an account has the address, so the form does not tell who has an account. */
export function resetLinkSentMessage(email: string): string {
  return `If an account exists for ${email}, we have sent a link to reset its password. The link works once, for one hour.`;
}

interface ForgotPasswordFormProps {
  /** Asks for the link; rejects with the server's error. */
  onSubmit: (email: string) => Promise<unknown>;
}

/** /forgot-password: one field, the shared Email schema's messages. */
export function ForgotPasswordForm({ onSubmit }: ForgotPasswordFormProps) {
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordInput, unknown, RequestPasswordResetBody>({
    resolver: forgotPasswordResolver,
    defaultValues: { email: '' },
  });

  const submit = handleSubmit(async ({ email }) => {
    setFormError(null);
    setSentTo(null);
    try {
      await onSubmit(email);
      setSentTo(email);
    } catch (error) {
      setFormError(mailRequestFailureMessage(error, 'We could not send the link. Please try again.'));
    }
  });

  const alert = formError ?? errors.root?.message;

  return (
    <Form label="Reset your password" onSubmit={submit} onFocus={forgotPasswordResolver.preload} alert={alert}>
      {sentTo ? (
        <div role="status" className="alert alert-success">
          <span className="break-words">{resetLinkSentMessage(sentTo)}</span>
        </div>
      ) : null}
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <BusyButton type="submit" className="btn-primary mt-2" busy={isSubmitting}>
        Send the reset link
      </BusyButton>
    </Form>
  );
}
