import { ClassOverview } from '../../../features/teacher/components/class-overview.tsx';
import { ClassStatsPanel } from '../../../features/teacher/components/class-stats-panel.tsx';
import { useIdParam } from './use-id-param.ts';

/** seeProgressDetails/:id (spec §2, admin): name, email, price, description, title, image + figures. */
function SeeProgressDetailsRoute() {
  const id = useIdParam();
  return (
    <ClassOverview key={id} classId={id} heading="Class progress">
      <ClassStatsPanel classId={id} />
    </ClassOverview>
  );
}

export { SeeProgressDetailsRoute as Component };
