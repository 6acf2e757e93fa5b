import { ClassDetailsPage } from '../../../features/enrollments/components/class-details-page.tsx';
import { VerifyEmailNotice } from '../../../features/auth/components/verify-email-notice.tsx';
import { ClassSchedule, useSectionChoice } from '../../../features/sections/components/class-schedule.tsx';
import { useIdParam } from './use-id-param.ts';

/**
 * classDetails/:id (spec §2); Pay Now leads to paying, which needs a verified address. A live
 * class shows its schedule, and Pay Now enrolls in the section picked there (decision 042).
 */
function ClassDetailsRoute() {
  const id = useIdParam();
  return <ClassDetailsOf key={id} id={id} />;
}

function ClassDetailsOf({ id }: { id: string }) {
  const choice = useSectionChoice();
  return (
    <ClassDetailsPage
      classId={id}
      emailNotice={<VerifyEmailNotice />}
      schedule={<ClassSchedule classId={id} selected={choice.sectionId} onSelect={choice.onSelect} />}
      sectionId={choice.sectionId ?? undefined}
      canBuy={choice.canBuy}
    />
  );
}

export { ClassDetailsRoute as Component };
