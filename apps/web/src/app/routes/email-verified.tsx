import { useSearchParams } from 'react-router';
import { EmailVerifiedStatus } from '../../features/auth/components/email-verified-status.tsx';
import { SITE_PAGES } from '../routes.manifest.ts';

/** /email-verified: the verification link's landing page (public). */
function EmailVerifiedPage() {
  const [params] = useSearchParams();
  const error = params.get('error');
  return (
    <div className="mx-auto w-full max-w-md">
      <title>{error ? 'Verification link not accepted — SkillHive' : SITE_PAGES.emailVerified.title}</title>
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-5 p-6 sm:p-8">
          <h1 className="text-2xl font-bold">{error ? 'We could not verify your address' : 'E-mail verified'}</h1>
          <EmailVerifiedStatus error={error} />
        </div>
      </div>
    </div>
  );
}

export { EmailVerifiedPage as Component };
