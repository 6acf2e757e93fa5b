import { ProfilePage } from '../../../features/users/components/profile-page.tsx';
import { VerifyEmailNotice } from '../../../features/auth/components/verify-email-notice.tsx';

/** profile (spec §2), with the auth feature's notice for an unverified address. */
function ProfileRoute() {
  return <ProfilePage emailNotice={<VerifyEmailNotice />} />;
}

export { ProfileRoute as Component };
