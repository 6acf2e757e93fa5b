import { AllReviews } from '../../features/reviews/components/all-reviews.tsx';
import { SITE_PAGES } from '../routes.manifest.ts';

/** /reviews: every learner review, paged ("See all reviews" on the home page). */
function ReviewsPage() {
  return (
    <>
      <title>{SITE_PAGES.reviews.title}</title>
      <AllReviews />
    </>
  );
}

export { ReviewsPage as Component };
