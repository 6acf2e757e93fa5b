import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { LeaveGuard } from '../../../components/ui/leave-guard.tsx';
import { ContentEditor } from '../../../features/content/components/content-editor.tsx';
import { SectionsEditor } from '../../../features/sections/components/sections-editor.tsx';
import { SectionQueue } from '../../../features/waitlists/components/section-queue.tsx';
import { ClassOverview } from '../../../features/teacher/components/class-overview.tsx';
import { ReviewStatusNote } from '../../../features/teacher/components/review-status-note.tsx';
import { useIdParam } from './use-id-param.ts';

/**
 * my-class/:id/prepare: the teacher's editor of a class — its sessions (one, or repeated weekly)
 * and materials as drafts, "Publish all", its sections — from the moment the class is created.
 * Spec §2 opens my-class/:id (See Details) for accepted classes only; this page is the editor
 * alone, reached from every class's card, so a class can be ready when an admin accepts it.
 */
function PrepareClassRoute() {
  const id = useIdParam();
  return (
    <ClassOverview
      key={id}
      classId={id}
      heading="Sessions and materials"
      lead={(item) => (
        <>
          <Link to={paths.dashboard.myClass} className="link self-start">
            Back to My classes
          </Link>
          <ReviewStatusNote status={item.status} />
          {/* One guard for both editors: the router keeps one blocker at a time. */}
          <LeaveGuard>
            <ContentEditor classId={id} />
            <SectionsEditor
              classId={id}
              renderQueue={(sectionId, label) => <SectionQueue sectionId={sectionId} label={label} />}
            />
          </LeaveGuard>
        </>
      )}
    />
  );
}

export { PrepareClassRoute as Component };
