import type { ReactNode } from 'react';
import type { UserProfile } from '@skillhive/shared/contracts/users';
import { ProfileSection } from './profile-section.tsx';
import { EditProfileForm } from './edit-profile-form.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { EmailSection } from './email-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import { InAppNotificationsSection } from './in-app-notifications-section.tsx';
import { NotificationsSection } from './notifications-section.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';

export interface AccountSettingsProps {
  profile: UserProfile;
  email: string;
  emailVerified: boolean;
  /** The auth feature's "verify your address" notice. */
  emailNotice?: ReactNode;
  /** The `?error=` a failed e-mail change link came back with. */
  linkError: string | null;
}

/**
 * The account's settings on the profile page, one card each.
 * Their forms (and react-hook-form) are a chunk of their own, downloaded with the navigation to
 * the profile (its route's loader), so the profile card does not wait for them.
 */
export function AccountSettings({ profile, email, emailVerified, emailNotice, linkError }: AccountSettingsProps) {
  return (
    <>
      <ProfileSection title="Edit profile">
        <EditProfileForm key={`${profile.name}|${profile.phone}|${profile.image}`} profile={profile} />
      </ProfileSection>

      <ProfileSection title="E-mail address">
        <EmailSection email={email} verified={emailVerified} notice={emailNotice} linkError={linkError} />
      </ProfileSection>

      <ProfileSection title="Change password" description="Changing your password signs you out on every other device.">
        <ChangePasswordForm />
      </ProfileSection>

      <ProfileSection title="Signed-in devices" description="Where your account is signed in now.">
        <SessionsSection />
      </ProfileSection>

      <ProfileSection title="E-mail notifications" description="Send me an e-mail…">
        <NotificationsSection />
      </ProfileSection>

      <ProfileSection title="Notification centre" description="Show in the bell at the top of the page…">
        <InAppNotificationsSection />
      </ProfileSection>

      <ProfileSection title="Delete account" danger>
        <DeleteAccountSection />
      </ProfileSection>
    </>
  );
}
