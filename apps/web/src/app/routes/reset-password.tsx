import { useSearchParams } from 'react-router';
import { useAuth } from '../../features/auth/auth-context.ts';
import { useResetPassword } from '../../features/auth/api/password-reset.ts';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form.tsx';
import { SITE_PAGES } from '../routes.manifest.ts';

/** /reset-password?token=… (or ?error=…): where the reset link lands (public; accounts and e-mail issue §3). */
function ResetPasswordPage() {
  const [params] = useSearchParams();
  const { user, forgetSession } = useAuth();
  const reset = useResetPassword();
  return (
    <div className="mx-auto w-full max-w-md">
      <title>{SITE_PAGES.resetPassword.title}</title>
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-5 p-6 sm:p-8">
          <h1 className="text-2xl font-bold">Choose a new password</h1>
          <ResetPasswordForm
            token={params.get('token')}
            linkError={params.get('error')}
            onSubmit={async (body) => {
              await reset.mutateAsync(body);
              // The reset ended every session, this browser's too: forget it here as well.
              if (user) await forgetSession();
            }}
          />
        </div>
      </div>
    </div>
  );
}

export { ResetPasswordPage as Component };
