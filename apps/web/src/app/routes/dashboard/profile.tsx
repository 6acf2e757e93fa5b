import { loadAccountSettings, ProfilePage } from '../../../features/users/components/profile-page.tsx';
import { VerifyEmailNotice } from '../../../features/auth/components/verify-email-notice.tsx';

/** profile (spec §2), with the auth feature's notice for an unverified address. */
function ProfileRoute() {
  return <ProfilePage emailNotice={<VerifyEmailNotice />} />;
}

/**
 * The settings' forms download with the navigation, beside the page's own code; the profile card
 * does not wait for them (not returned: nothing here holds back the first render).
 */
export function loader() {
  void loadAccountSettings().catch(() => undefined);
}

export { ProfileRoute as Component };
