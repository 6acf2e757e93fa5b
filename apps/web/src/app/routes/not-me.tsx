import { useSearchParams } from 'react-router';
import { NotMeForm } from '../../features/users/components/not-me-form.tsx';
import { SITE_PAGES } from '../routes.manifest.ts';
import { CardPage } from '../../components/ui/card-page.tsx';

/** /not-me: where the "this was not me" link of a change-of-address mail lands (public). */
function NotMePage() {
  const [params] = useSearchParams();
  return (
    <CardPage title={SITE_PAGES.notMe.title} heading="This was not me">
      <NotMeForm token={params.get('token')} />
    </CardPage>
  );
}

export { NotMePage as Component };
