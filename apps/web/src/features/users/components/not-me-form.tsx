import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { NotMeBody } from '@skillhive/shared/rules/account-forms';
import { apiClient, errorMessage } from '../../../lib/api-client.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { FormMessage } from '../../../components/ui/form-message.tsx';

/**
 * "This was not me" (decision 028): one button, so a mail scanner following the link changes
 * nothing; pressed, every device is signed out and the change of address undone.
 */
export function NotMeForm({ token }: { token: string | null }) {
  const [done, setDone] = useState<{ emailRestored: boolean } | null>(null);
  const undo = useMutation({
    mutationFn: (body: NotMeBody) => apiClient.post('/users/not-me', body),
    onSuccess: (answer) => setDone(answer),
  });
  if (!token) return <FormMessage kind="error">This link is incomplete. Open it again from the mail.</FormMessage>;
  if (done) {
    return (
      <FormMessage kind="success">
        Every device is signed out
        {done.emailRestored ? ' and your account has its old e-mail address back' : ''}. Now reset your password with
        “Forgot your password?” on the sign-in page.
      </FormMessage>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <p>
        If you did not ask to change your account&apos;s e-mail address, sign it out everywhere and undo the change.
      </p>
      {undo.isError ? (
        <FormMessage kind="error">{errorMessage(undo.error, 'That did not work. Please try again.')}</FormMessage>
      ) : null}
      <BusyButton
        type="button"
        className="btn-primary self-start"
        busy={undo.isPending}
        onClick={() => undo.mutate({ token })}
      >
        Sign out everywhere and undo
      </BusyButton>
    </div>
  );
}
