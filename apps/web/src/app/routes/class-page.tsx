import { useParams } from 'react-router';
import { publicClassQueryOptions } from '../../features/classes/api/get-public-class.ts';
import { PublicClassPage } from '../../features/classes/components/public-class-page.tsx';
import { ClassPurchase } from '../../features/enrollments/components/class-purchase.tsx';
import { VerifyEmailNotice } from '../../features/auth/components/verify-email-notice.tsx';
import { loadRouteData, type PageLoaderArgs } from '../route-data.ts';

/** The class's public data is part of the first paint: the server preloads it with the page (decision 008). */
export function loader(args: PageLoaderArgs) {
  return loadRouteData(publicClassQueryOptions(args.params['id'] ?? ''), args);
}

/** /classes/:id: the public page of an accepted class, linked from every class card. */
function ClassPageRoute() {
  const id = useParams()['id'] ?? '';
  return (
    <PublicClassPage
      key={id}
      classId={id}
      actions={<ClassPurchase classId={id} emailNotice={<VerifyEmailNotice />} />}
    />
  );
}

export { ClassPageRoute as Component };
