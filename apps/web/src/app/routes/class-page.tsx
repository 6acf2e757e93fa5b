import { useParams } from 'react-router';
import { classReviewsQueryOptions, publicClassQueryOptions } from '../../features/classes/api/get-public-class.ts';
import { PublicClassPage } from '../../features/classes/components/public-class-page.tsx';
import { ClassPurchase } from '../../features/enrollments/components/class-purchase.tsx';
import { ClassSchedule, useSectionChoice } from '../../features/sections/components/class-schedule.tsx';
import { VerifyEmailNotice } from '../../features/auth/components/verify-email-notice.tsx';
import { MessageTeacherButton } from '../../features/messages/components/message-teacher-button.tsx';
import { ReportButton } from '../../features/moderation/components/report-button.tsx';
import { SectionWaitlist } from '../../features/waitlists/components/section-waitlist.tsx';
import { loadRouteData, routeDataTarget, type PageLoaderArgs } from '../route-data.ts';

/**
 * The class's public data is part of the first paint: the server preloads it with the page
 * (decision 008). The server's render (decision 030) also carries the first page of its reviews,
 * when it has any: a search engine and a visitor without JavaScript read them too.
 */
export async function loader(args: PageLoaderArgs) {
  const id = args.params['id'] ?? '';
  const classRead = publicClassQueryOptions(id);
  await loadRouteData(classRead, args);
  const { client, waitForAll } = routeDataTarget(args);
  if (waitForAll && (client.getQueryData(classRead.queryKey)?.reviewCount ?? 0) > 0)
    await loadRouteData(classReviewsQueryOptions(id, 1), args);
  return null;
}

/**
 * /classes/:id: the public page of an accepted class, linked from every class card. A live class
 * shows its schedule, and Pay Now enrolls in the section picked there (decision 042); a full section
 * offers its waiting list (decision 051).
 */
function ClassPageRoute() {
  const id = useParams()['id'] ?? '';
  return <ClassPageOf key={id} id={id} />;
}

function ClassPageOf({ id }: { id: string }) {
  const choice = useSectionChoice();
  return (
    <PublicClassPage
      classId={id}
      actions={(cls) => (
        <>
          <ClassSchedule
            classId={id}
            selected={choice.sectionId}
            onSelect={choice.onSelect}
            renderFull={(section, name) => <SectionWaitlist classId={id} sectionId={section._id} sectionName={name} />}
          />
          <ClassPurchase
            classId={id}
            teacherId={cls.teacher._id}
            sectionId={choice.sectionId ?? undefined}
            canBuy={choice.canBuy}
            emailNotice={<VerifyEmailNotice />}
          />
        </>
      )}
      renderReport={(target) => <ReportButton target={target} />}
      renderContact={(contact) => <MessageTeacherButton {...contact} />}
    />
  );
}

export { ClassPageRoute as Component };
