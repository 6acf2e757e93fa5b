import { ClassProgressPanel } from '../../../features/content/components/class-progress-panel.tsx';
import { ContentEditor } from '../../../features/content/components/content-editor.tsx';
import { ClassOverview } from '../../../features/teacher/components/class-overview.tsx';
import { ClassRoster } from '../../../features/teacher/components/class-roster.tsx';
import { ClassStatsPanel } from '../../../features/teacher/components/class-stats-panel.tsx';
import { useIdParam } from './use-id-param.ts';

/** my-class/:id (DESIGN §1.10): the teacher's class with its enrollment figures, its sessions and materials
 * (decision 021), its students' progress and who enrolled. The sections editor (decision 041) joins
 * this page with seat holds and the buyer's section choice; until then a class runs one section. */
function MyClassDetailsRoute() {
  const id = useIdParam();
  return (
    // spec §8 spells the my-class failure "Error fetching profile:".
    <ClassOverview key={id} classId={id} heading="Class details" errorWhat="profile">
      <ClassStatsPanel classId={id} />
      <ContentEditor classId={id} />
      <ClassProgressPanel classId={id} />
      <ClassRoster classId={id} />
    </ClassOverview>
  );
}

export { MyClassDetailsRoute as Component };
