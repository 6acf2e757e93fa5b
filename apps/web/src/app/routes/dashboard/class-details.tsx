import { ClassDetailsPage } from '../../../features/enrollments/components/class-details-page.tsx';
import { useIdParam } from './use-id-param.ts';

/** classDetails/:id (spec §2). */
function ClassDetailsRoute() {
  const id = useIdParam();
  return <ClassDetailsPage key={id} classId={id} />;
}

export { ClassDetailsRoute as Component };
