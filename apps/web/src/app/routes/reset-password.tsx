import { useSearchParams } from 'react-router';
import { useAuth } from '../../features/auth/auth-context.ts';
import { useResetPassword } from '../../features/auth/api/password-reset.ts';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form.tsx';
import { SITE_PAGES } from '../routes.manifest.ts';
import { CardPage } from '../../components/ui/card-page.tsx';

/** /reset-password?token=… (or ?error=…): where the reset link lands (public; decision 014). */
function ResetPasswordPage() {
  const [params] = useSearchParams();
  const { user, forgetSession } = useAuth();
  const reset = useResetPassword();
  return (
    <CardPage title={SITE_PAGES.resetPassword.title} heading="Choose a new password">
      <ResetPasswordForm
        token={params.get('token')}
        linkError={params.get('error')}
        onSubmit={async (body) => {
          await reset.mutateAsync(body);
          // The reset ended every session, this browser's too: forget it here as well.
          if (user) await forgetSession();
        }}
      />
    </CardPage>
  );
}

export { ResetPasswordPage as Component };
