import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { ChangePasswordBody } from '@skillhive/shared/rules/account-forms';
import { errorMessage, isApiError } from '../../../lib/api-client.ts';
import { TextField } from '../../../components/ui/form-field.tsx';
import { useAuth } from '../../auth/auth-context.ts';
import { INVALID_PASSWORD, useChangePassword } from '../../auth/api/account.ts';
import {
  PASSWORD_RULE_HINT,
  withPasswordConfirmation,
  type ConfirmedPassword,
} from '../../auth/password-confirmation.ts';
import { meKeys } from '../api/me.ts';
import { Form, FormMessage } from '../../../components/ui/form-message.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { NewPasswordFields } from '../../../components/ui/new-password-fields.tsx';
import { zodResolver } from '@hookform/resolvers/zod';

const changePasswordResolver = zodResolver(ChangePasswordBody);

type ChangePasswordInput = ConfirmedPassword & { currentPassword: string };

export const CHANGE_PASSWORD_MESSAGES = {
  done: 'Your password has been changed. Every other device signed in to your account has been signed out.',
  wrongCurrent: 'The current password is not right',
  rateLimited: 'Too many attempts. Please wait a few minutes and try again.',
} as const;

const EMPTY: ChangePasswordInput = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** "Change password": the server signs every other device out. */
export function ChangePasswordForm() {
  const { adoptRenewedSession, user } = useAuth();
  const queryClient = useQueryClient();
  const change = useChangePassword();
  const [outcome, setOutcome] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordInput, unknown, ChangePasswordBody>({
    resolver: withPasswordConfirmation(changePasswordResolver),
    defaultValues: EMPTY,
  });

  const submit = handleSubmit(async (values) => {
    setOutcome(null);
    try {
      await change.mutateAsync({ currentPassword: values.currentPassword, newPassword: values.newPassword });
    } catch (error) {
      if (isApiError(error) && error.authCode === INVALID_PASSWORD) {
        setError('currentPassword', { type: 'server', message: CHANGE_PASSWORD_MESSAGES.wrongCurrent });
      } else if (isApiError(error) && error.status === 429) {
        setOutcome({ kind: 'error', message: CHANGE_PASSWORD_MESSAGES.rateLimited });
      } else if (isApiError(error) && error.fields?.['newPassword']) {
        setError('newPassword', { type: 'server', message: error.fields['newPassword'] });
      } else {
        setOutcome({ kind: 'error', message: errorMessage(error, 'Your password could not be changed.') });
      }
      return;
    }
    // This device now has a new session (the old ones were ended): switch to it and its token.
    await adoptRenewedSession();
    void queryClient.invalidateQueries({ queryKey: meKeys.sessions(user?.id ?? '') });
    reset(EMPTY);
    setOutcome({ kind: 'success', message: CHANGE_PASSWORD_MESSAGES.done });
  });

  return (
    <Form
      label="Change password"
      onSubmit={submit}

      alert={errors.root?.message}
    >
      {outcome ? <FormMessage kind={outcome.kind}>{outcome.message}</FormMessage> : null}
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <NewPasswordFields
        hint={PASSWORD_RULE_HINT}
        password={{ ...register('newPassword'), error: errors.newPassword?.message }}
        confirmation={{ ...register('confirmPassword'), error: errors.confirmPassword?.message }}
        confirmLabel="Confirm new password"
      />
      <BusyButton type="submit" className="btn-primary self-start" busy={isSubmitting}>
        Change password
      </BusyButton>
    </Form>
  );
}
