import { ClassDetailsPage } from '../../../features/enrollments/components/class-details-page.tsx';
import { VerifyEmailNotice } from '../../../features/auth/components/verify-email-notice.tsx';
import { useIdParam } from './use-id-param.ts';

/** classDetails/:id (spec §2); Pay Now leads to paying, which needs a verified address. */
function ClassDetailsRoute() {
  const id = useIdParam();
  return <ClassDetailsPage key={id} classId={id} emailNotice={<VerifyEmailNotice />} />;
}

export { ClassDetailsRoute as Component };
