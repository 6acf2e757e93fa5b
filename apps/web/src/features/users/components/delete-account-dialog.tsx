import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { DeleteOwnAccountBody } from '@skillhive/shared/rules/account-forms';
import { ACCOUNT_MESSAGES } from '@skillhive/shared/rules/messages';
import { paths } from '../../../config/paths.ts';
import { errorMessage, isApiError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { TextField } from '../../../components/ui/form-field.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { useAuth } from '../../auth/auth-context.ts';
import { deleteMyAccount } from '../api/me.ts';
import { FormMessage } from '../../../components/ui/form-message.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { zodResolver } from '@hookform/resolvers/zod';

const deleteAccountResolver = zodResolver(DeleteOwnAccountBody);

type DeleteAccountInput = z.input<typeof DeleteOwnAccountBody>;

/**
 * The confirmation of "Delete account" (decision 014): the password, in a dialog.
 * Loaded when first opened (delete-account-section.tsx), off the page's first load (decision 005).
 */
export function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { forgetSession } = useAuth();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting: deleting },
  } = useForm<DeleteAccountInput, unknown, DeleteOwnAccountBody>({
    resolver: deleteAccountResolver,
    defaultValues: { password: '' },
  });

  const close = () => {
    if (deleting) return;
    onClose();
    reset();
    setFormError(null);
  };

  const submit = handleSubmit(async ({ password }) => {
    setFormError(null);
    try {
      // An account without a password sends none; the server then wants a recent sign-in.
      await deleteMyAccount(password ? { password } : {});
    } catch (error) {
      const fieldMessage = isApiError(error)
        ? error.message === ACCOUNT_MESSAGES.wrongPassword
          ? error.message
          : error.fields?.['password']
        : undefined;
      if (fieldMessage) setError('password', { type: 'server', message: fieldMessage });
      else if (isApiError(error) && error.status === 429)
        setFormError('Too many attempts. Please wait a few minutes and try again.');
      else setFormError(errorMessage(error, 'Your account could not be deleted. Please try again.'));
      return;
    }
    onClose();
    // Leave the dashboard first: its guard would otherwise send a signed-out visitor to /login.
    await navigate(paths.home, { replace: true });
    await forgetSession();
    notify.success('Your account was deleted');
  });

  const alert = formError ?? errors.root?.message;

  return (
    <FormDialog
      open={open}
      title="Delete your account?"
      description="This cannot be undone. Payment records are kept for accounting. Enter your password to confirm."
      onCancel={close}
      onSubmit={(event) => void submit(event)}
    >
      {alert ? <FormMessage kind="error">{alert}</FormMessage> : null}
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        hint="If you sign in only with Google or another provider, leave this empty."
        error={errors.password?.message}
        {...register('password')}
      />
      <div className="modal-action flex-wrap">
        <button type="button" className="btn btn-ghost" onClick={close} disabled={deleting}>
          Cancel
        </button>
        <BusyButton type="submit" className="btn-error" busy={deleting}>
          Delete my account
        </BusyButton>
      </div>
    </FormDialog>
  );
}
