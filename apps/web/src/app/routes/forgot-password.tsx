import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useRequestPasswordReset } from '../../features/auth/api/password-reset.ts';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form.tsx';
import { SITE_PAGES } from '../routes.manifest.ts';

/** /forgot-password: ask for a reset link by e-mail (public; accounts and e-mail issue §3). */
function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  return (
    <div className="mx-auto w-full max-w-md">
      <title>{SITE_PAGES.forgotPassword.title}</title>
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-5 p-6 sm:p-8">
          <div>
            <h1 className="text-2xl font-bold">Forgot your password?</h1>
            <p className="mt-1 text-muted">
              Enter your account's e-mail address and we will send you a link to choose a new one.
            </p>
          </div>
          <ForgotPasswordForm onSubmit={(email) => request.mutateAsync(email)} />
          <p className="text-center">
            Remembered it?{' '}
            <Link to={paths.login} className="link link-primary font-medium">
              Sign in
            </Link>
          </p>
        </div>
      </div>
    </div>
  );
}

export { ForgotPasswordPage as Component };
