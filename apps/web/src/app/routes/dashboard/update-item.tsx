import { UpdateClassPage } from '../../../features/teacher/components/update-class-page.tsx';
import { useIdParam } from './use-id-param.ts';

/** updateItem/:id (spec §2, teacher). */
function UpdateItemRoute() {
  const id = useIdParam();
  return <UpdateClassPage key={id} classId={id} />;
}

export { UpdateItemRoute as Component };
