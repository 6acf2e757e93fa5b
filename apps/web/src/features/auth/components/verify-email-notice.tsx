import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../auth-context.ts';
import { useSendVerificationEmail } from '../api/email-verification.ts';
import { SESSION_QUERY_KEY } from '../api/get-session.ts';
import { mailRequestFailureMessage, verifyEmailMessage } from '../verify-email.ts';

type ResendState = { kind: 'idle' } | { kind: 'sent' } | { kind: 'failed'; message: string };

interface VerifyEmailAlertProps {
  email: string;
  /** Sends the link again; rejects with the server's error. */
  onResend: () => Promise<unknown>;
  className?: string | undefined;
}

/**
 * The notice of an unverified address (decision 014): why it matters, where the
 * link went, and a button to send it again (rate limited by the server).
 */
export function VerifyEmailAlert({ email, onResend, className = '' }: VerifyEmailAlertProps) {
  const [state, setState] = useState<ResendState>({ kind: 'idle' });
  const [sending, setSending] = useState(false);

  const resend = async () => {
    setSending(true);
    setState({ kind: 'idle' });
    try {
      await onResend();
      setState({ kind: 'sent' });
    } catch (error) {
      setState({
        kind: 'failed',
        message: mailRequestFailureMessage(error, 'We could not send the link. Please try again.'),
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <section
      aria-label="E-mail verification"
      data-testid="verify-email-notice"
      className={`alert alert-warning flex flex-col items-start gap-3 sm:flex-row sm:items-center ${className}`}
    >
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="break-words">{verifyEmailMessage(email)}</p>
        {state.kind === 'sent' ? (
          <p role="status" className="font-medium">
            Sent. Check your inbox.
          </p>
        ) : state.kind === 'failed' ? (
          <p role="alert" className="font-medium text-error">
            {state.message}
          </p>
        ) : null}
      </div>
      <button
        type="button"
        className="btn btn-sm btn-outline shrink-0"
        disabled={sending}
        onClick={() => void resend()}
      >
        {sending ? <span className="loading loading-spinner loading-xs" aria-hidden="true" /> : null}
        Send the link again
      </button>
    </section>
  );
}

/**
 * Shown to a signed-in user whose address is not verified (nothing otherwise), wherever applying
 * to teach or paying is offered and on the profile.
 */
export function VerifyEmailNotice({ className }: { className?: string | undefined }) {
  const { user } = useAuth();
  const send = useSendVerificationEmail();
  const queryClient = useQueryClient();
  const waiting = user !== null && !user.emailVerified;

  // The link is usually followed in another tab: coming back here, ask whether it was.
  useEffect(() => {
    if (!waiting) return;
    const recheck = () => {
      if (document.visibilityState === 'visible') void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    };
    document.addEventListener('visibilitychange', recheck);
    window.addEventListener('focus', recheck);
    return () => {
      document.removeEventListener('visibilitychange', recheck);
      window.removeEventListener('focus', recheck);
    };
  }, [waiting, queryClient]);

  if (!user || user.emailVerified) return null;
  return <VerifyEmailAlert email={user.email} onResend={() => send.mutateAsync(user.email)} className={className} />;
}
