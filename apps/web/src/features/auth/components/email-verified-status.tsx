import { useEffect } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../auth-context.ts';
import { SESSION_QUERY_KEY } from '../api/get-session.ts';
import { VerifyEmailNotice } from './verify-email-notice.tsx';
import { forgetReturnAfterVerify, returnAfterVerify } from '../safe-return-path.ts';

/** better-auth's reasons for refusing a verification link (?error=…). */
function failureMessage(code: string): string {
  if (code === 'TOKEN_EXPIRED') return 'This verification link has expired.';
  if (code === 'INVALID_TOKEN')
    return 'This verification link is not valid: it may have been used already, or copied only in part.';
  if (code === 'USER_NOT_FOUND') return 'The account this link was sent for no longer exists.';
  return 'We could not verify your e-mail address with this link.';
}

/**
 * /email-verified: where the verification link lands (decision 014), with
 * ?error=<CODE> when the server refused it.
 */
export function EmailVerifiedStatus({ error }: { error: string | null }) {
  const { user, loading } = useAuth();
  const queryClient = useQueryClient();

  // The address is verified now: the session (and what it unlocks) must say so.
  useEffect(() => {
    if (!error) void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
  }, [error, queryClient]);

  if (!error) {
    // The page the account was created from: where the person wanted to go.
    const continueTo = returnAfterVerify();
    return (
      <div role="status" className="flex flex-col items-start gap-4">
        <p className="text-lg">Your e-mail address is verified.</p>
        {continueTo ? (
          <Link to={continueTo} onClick={forgetReturnAfterVerify} className="btn btn-primary">
            Continue where you left off
          </Link>
        ) : null}
        {continueTo ? null : user ? (
          <Link to={paths.dashboard.root} className="btn btn-primary">
            Go to your dashboard
          </Link>
        ) : loading ? null : (
          <Link to={paths.login} className="btn btn-primary">
            Sign in
          </Link>
        )}
      </div>
    );
  }

  return (
    <div className="flex flex-col items-start gap-4">
      <div role="alert" className="alert alert-error">
        <span>{failureMessage(error)}</span>
      </div>
      {loading ? null : user ? (
        user.emailVerified ? (
          <>
            <p>Your e-mail address is verified already: there is nothing more to do.</p>
            <Link to={paths.dashboard.root} className="btn btn-primary">
              Go to your dashboard
            </Link>
          </>
        ) : (
          <VerifyEmailNotice className="w-full" />
        )
      ) : (
        <>
          <p>Sign in, and you can ask for a new link from your profile.</p>
          <Link
            to={paths.login}
            state={{ from: { pathname: paths.dashboard.profile, search: '', hash: '' } }}
            className="btn btn-primary"
          >
            Sign in
          </Link>
        </>
      )}
    </div>
  );
}
