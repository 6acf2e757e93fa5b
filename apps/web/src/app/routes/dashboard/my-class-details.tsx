import { AnnouncementsPanel } from '../../../features/content/components/announcements.tsx';
import { ClassProgressPanel } from '../../../features/content/components/class-progress-panel.tsx';
import { LeaveGuard } from '../../../components/ui/leave-guard.tsx';
import { ContentEditor } from '../../../features/content/components/content-editor.tsx';
import { SectionsEditor } from '../../../features/sections/components/sections-editor.tsx';
import { SectionQueue } from '../../../features/waitlists/components/section-queue.tsx';
import { ClassReviewReplies } from '../../../features/teacher/components/class-review-replies.tsx';
import { ClassOverview } from '../../../features/teacher/components/class-overview.tsx';
import { ClassRoster } from '../../../features/teacher/components/class-roster.tsx';
import { ClassStatsPanel } from '../../../features/teacher/components/class-stats-panel.tsx';
import { ReviewStatusNote } from '../../../features/teacher/components/review-status-note.tsx';
import { useIdParam } from './use-id-param.ts';

/** my-class/:id (DESIGN §1.10): the teacher's class. First its editor — sessions and materials
 * (decision 021), then its sections (seats, minimum, enrollment window and zone, decisions 041 and
 * 042) — open from the moment the class is created, pending review too; then the class, its
 * enrollment figures, announcements to its students (decision 050), its students' progress, who
 * enrolled, and its reviews with the teacher's replies (decision 046). */
function MyClassDetailsRoute() {
  const id = useIdParam();
  return (
    // spec §8 spells the my-class failure "Error fetching profile:".
    <ClassOverview
      key={id}
      classId={id}
      heading="Class details"
      errorWhat="profile"
      lead={(item) => (
        <>
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
    >
      <ClassStatsPanel classId={id} />
      <AnnouncementsPanel classId={id} />
      <ClassProgressPanel classId={id} />
      <ClassRoster classId={id} />
      <ClassReviewReplies classId={id} />
    </ClassOverview>
  );
}

export { MyClassDetailsRoute as Component };
