import { useSearchParams } from 'react-router';
import { EmailVerifiedStatus } from '../../features/auth/components/email-verified-status.tsx';
import { SITE_PAGES } from '../routes.manifest.ts';
import { CardPage } from '../../components/ui/card-page.tsx';

/** /email-verified: the verification link's landing page (public). */
function EmailVerifiedPage() {
  const [params] = useSearchParams();
  const error = params.get('error');
  return (
    <CardPage
      title={error ? 'Verification link not accepted — SkillHive' : SITE_PAGES.emailVerified.title}
      heading={error ? 'We could not verify your address' : 'E-mail verified'}
    >
      <EmailVerifiedStatus error={error} />
    </CardPage>
  );
}

export { EmailVerifiedPage as Component };
