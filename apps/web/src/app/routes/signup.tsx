import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { notify } from '../../lib/toast.ts';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../features/auth/auth-context.ts';
import { SignUpForm } from '../../features/auth/components/signup-form.tsx';
import { SocialSignIn } from '../../features/auth/components/social-sign-in.tsx';
import { rememberReturnAfterVerify, returnPathFrom } from '../../features/auth/safe-return-path.ts';
import { SITE_PAGES } from '../routes.manifest.ts';
import { CardPage } from '../../components/ui/card-page.tsx';

/**
 * /signup: a new student account; success signs in and returns to the page the visitor came from
 * (through /login too), else / (spec §2, as /login does). That page is also kept for after the
 * verification link, which always lands on /email-verified.
 */
function SignUpPage() {
  const { user, loading, createUser } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const returnTo = returnPathFrom(location.state);

  if (user && !loading) return <Navigate to={returnTo} replace />;

  return (
    <CardPage
      title={SITE_PAGES.signup.title}
      heading="Create your account"
      intro="Join SkillHive as a student — it takes a minute."
    >
      <SignUpForm
        onSubmit={async (values) => {
          rememberReturnAfterVerify(returnTo);
          await createUser(values);
          notify.success('Welcome to SkillHive! Your account is ready.', {
            // Sign-up sends the verification mail (decision 014).
            description: `We sent a link to ${values.email} to verify your e-mail address.`,
          });
          navigate(returnTo, { replace: true });
        }}
      />
      <SocialSignIn returnTo={returnTo} />
      <p className="text-center">
        Already have an account?{' '}
        <Link to={paths.login} state={location.state} className="link link-primary font-medium">
          Sign in
        </Link>
      </p>
    </CardPage>
  );
}

export { SignUpPage as Component };
