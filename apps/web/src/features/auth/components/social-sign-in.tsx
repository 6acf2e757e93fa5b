import { useState } from 'react';
import { notify } from '../../../lib/toast.ts';
import { useAppConfig } from '../api/get-app-config.ts';
import { useAuth } from '../auth-context.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { preloadAuthClient } from '../../../lib/load-auth-client.ts';

/** Third-party sign-in buttons, shown only for providers this deployment configures. */
export function SocialSignIn({ returnTo }: { returnTo: string }) {
  const config = useAppConfig();
  const { googleSignIn, oidcSignIn } = useAuth();
  const [pending, setPending] = useState<'google' | 'oidc' | null>(null);
  const google = config.data?.auth.google === true;
  const oidc = config.data?.auth.oidc ?? null;
  if (!google && !oidc) return null;

  const start = async (provider: 'google' | 'oidc') => {
    setPending(provider);
    try {
      await (provider === 'google' ? googleSignIn(returnTo) : oidcSignIn(returnTo));
    } catch (error) {
      setPending(null);
      notify.error(errorMessage(error, 'That sign-in provider is not available right now.'));
    }
  };

  return (
    <div className="flex flex-col gap-3" onPointerEnter={preloadAuthClient} onFocus={preloadAuthClient}>
      <div className="divider my-1">or</div>
      {google ? (
        <button
          type="button"
          className="btn btn-outline w-full"
          disabled={pending !== null}
          onClick={() => start('google')}
        >
          <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
            <path
              fill="#4285F4"
              d="M21.6 12.2c0-.7-.1-1.4-.2-2H12v3.8h5.4a4.6 4.6 0 0 1-2 3v2.5h3.2c1.9-1.7 3-4.3 3-7.3z"
            />
            <path
              fill="#34A853"
              d="M12 22c2.7 0 5-.9 6.6-2.4l-3.2-2.5c-.9.6-2 1-3.4 1-2.6 0-4.8-1.8-5.6-4.1H3.1v2.6A10 10 0 0 0 12 22z"
            />
            <path fill="#FBBC05" d="M6.4 14c-.2-.6-.3-1.3-.3-2s.1-1.4.3-2V7.4H3.1a10 10 0 0 0 0 9.2z" />
            <path fill="#EA4335" d="M12 6c1.5 0 2.8.5 3.8 1.5l2.9-2.9A10 10 0 0 0 3.1 7.4L6.4 10C7.2 7.7 9.4 6 12 6z" />
          </svg>
          {pending === 'google' ? 'Redirecting to Google…' : 'Continue with Google'}
        </button>
      ) : null}
      {oidc ? (
        <button
          type="button"
          className="btn btn-outline w-full"
          disabled={pending !== null}
          onClick={() => start('oidc')}
        >
          {pending === 'oidc' ? `Redirecting to ${oidc.name}…` : `Continue with ${oidc.name}`}
        </button>
      ) : null}
    </div>
  );
}
