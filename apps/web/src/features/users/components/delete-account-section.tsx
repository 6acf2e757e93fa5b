import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, isApiError } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { TextField } from '../../../components/ui/form-field.tsx';
import { useModalDialog } from '../../../components/ui/use-modal-dialog.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { deleteMyAccount } from '../api/me.ts';
import { FormMessage } from './profile-section.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';

const WRONG_PASSWORD = 'The password is not right';

/** "Delete account" (accounts and e-mail issue §4): confirmed in a dialog with the password. */
export function DeleteAccountSection() {
  const { forgetSession } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const ref = useModalDialog(open);
  const titleId = useId();
  const textId = useId();

  const close = () => {
    if (deleting) return;
    setOpen(false);
    setPassword('');
    setFieldError(null);
    setFormError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    setFormError(null);
    setDeleting(true);
    try {
      // An account without a password sends none; the server then wants a recent sign-in.
      await deleteMyAccount(password === '' ? {} : { password });
    } catch (error) {
      setDeleting(false);
      if (isApiError(error) && error.status === 403 && error.message === WRONG_PASSWORD) setFieldError(WRONG_PASSWORD);
      else if (isApiError(error) && error.fields?.['password']) setFieldError(error.fields['password']);
      else if (isApiError(error) && error.status === 429)
        setFormError('Too many attempts. Please wait a few minutes and try again.');
      else setFormError(errorMessage(error, 'Your account could not be deleted. Please try again.'));
      return;
    }
    setOpen(false);
    // Leave the dashboard first: its guard would otherwise send a signed-out visitor to /login.
    await navigate(paths.home, { replace: true });
    await forgetSession();
    notify.success('Your account was deleted');
  };

  return (
    <div className="flex flex-col items-start gap-3">
      <p>
        Deleting your account removes your profile and your reviews and signs you out on every device. It cannot be
        undone. Payment records are kept for accounting.
      </p>
      <button type="button" className="btn btn-error btn-outline" onClick={() => setOpen(true)}>
        Delete my account
      </button>
      <dialog
        ref={ref}
        className="modal modal-bottom sm:modal-middle"
        aria-labelledby={titleId}
        aria-describedby={textId}
        onCancel={(event) => {
          event.preventDefault();
          close();
        }}
      >
        <form className="modal-box flex flex-col gap-4" noValidate onSubmit={(event) => void submit(event)}>
          <h2 id={titleId} className="text-xl font-bold">
            Delete your account?
          </h2>
          <p id={textId}>
            This cannot be undone. Payment records are kept for accounting. Enter your password to confirm.
          </p>
          {formError ? <FormMessage kind="error">{formError}</FormMessage> : null}
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            hint="If you sign in only with Google or another provider, leave this empty."
            value={password}
            error={fieldError ?? undefined}
            onChange={(event) => setPassword(event.target.value)}
          />
          <div className="modal-action flex-wrap">
            <button type="button" className="btn btn-ghost" onClick={close} disabled={deleting}>
              Cancel
            </button>
            <BusyButton type="submit" className="btn-error" busy={deleting}>
              Delete my account
            </BusyButton>
          </div>
        </form>
      </dialog>
    </div>
  );
}
