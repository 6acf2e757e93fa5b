import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { notify } from '../../lib/toast.ts';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../features/auth/auth-context.ts';
import { LoginForm } from '../../features/auth/components/login-form.tsx';
import { SocialSignIn } from '../../features/auth/components/social-sign-in.tsx';
import { returnPathFrom } from '../../features/auth/safe-return-path.ts';
import { providerSignInFailureMessage } from '../../features/auth/components/login-form.tsx';
import { SITE_PAGES } from '../routes.manifest.ts';
import { CardPage } from '../../components/ui/card-page.tsx';

/** /login: returns the user to the page they came from, else / (spec §2). */
function LoginPage() {
  const { user, loading, signIn } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const returnTo = returnPathFrom(location.state);
  // A Google or OIDC sign-in that failed comes back here with ?error=… (decision 014).
  const [params] = useSearchParams();
  const providerError = params.get('error');

  if (user && !loading) return <Navigate to={returnTo} replace />;

  return (
    <CardPage
      title={SITE_PAGES.login.title}
      heading="Sign in to SkillHive"
      intro="Welcome back! Pick up where you left off."
    >
      {providerError ? (
        <div role="alert" className="alert alert-error">
          <span>{providerSignInFailureMessage(providerError)}</span>
        </div>
      ) : null}
      <LoginForm
        onSubmit={async ({ email, password }) => {
          await signIn(email, password);
          notify.success('Signed in successfully.');
          navigate(returnTo, { replace: true });
        }}
      />
      <p className="-mt-2 text-right">
        <Link to={paths.forgotPassword} className="link link-primary text-sm font-medium">
          Forgot your password?
        </Link>
      </p>
      <SocialSignIn returnTo={returnTo} />
      <p className="text-center">
        New to SkillHive?{' '}
        <Link to={paths.signup} state={location.state} className="link link-primary font-medium">
          Create an account
        </Link>
      </p>
    </CardPage>
  );
}

export { LoginPage as Component };
