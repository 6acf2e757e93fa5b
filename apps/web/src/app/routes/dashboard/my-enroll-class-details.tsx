import { StudentClassPage } from '../../../features/content/components/student-class-page.tsx';
import { useIdParam } from './use-id-param.ts';

/** myEnrollClass/:id (decision 021): a paid class's sessions, materials and the student's progress. */
function MyEnrollClassDetailsRoute() {
  const id = useIdParam();
  return <StudentClassPage key={id} classId={id} />;
}

export { MyEnrollClassDetailsRoute as Component };
