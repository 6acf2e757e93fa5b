import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useRequestPasswordReset } from '../../features/auth/api/password-reset.ts';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form.tsx';
import { SITE_PAGES } from '../routes.manifest.ts';
import { CardPage } from '../../components/ui/card-page.tsx';

/** /forgot-password: ask for a reset link by e-mail (public; decision 014). */
function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  return (
    <CardPage
      title={SITE_PAGES.forgotPassword.title}
      heading="Forgot your password?"
      intro="Enter your account's e-mail address and we will send you a link to choose a new one."
    >
      <ForgotPasswordForm onSubmit={(email) => request.mutateAsync(email)} />
      <p className="text-center">
        Remembered it?{' '}
        <Link to={paths.login} className="link link-primary font-medium">
          Sign in
        </Link>
      </p>
    </CardPage>
  );
}

export { ForgotPasswordPage as Component };
