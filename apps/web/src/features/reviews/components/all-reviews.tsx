import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { countOf } from '../../../lib/plural.ts';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { EmptyState, ErrorState } from '../../../components/ui/status-states.tsx';
import { REVIEWS_PAGE_SIZE, reviewsPageQueryOptions } from '../api/get-reviews.ts';
import { ReviewCard } from './review-card.tsx';

/** "See all reviews": every learner review, newest first, paged with ?page=. */
export function AllReviews() {
  const page = usePageParam();
  const query = useQuery(reviewsPageQueryOptions(page));
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <h1 className="text-3xl font-bold">What our learners say</h1>
        <p className="text-muted">{query.data ? countOf(query.data.total, 'review') : '\u00a0'}</p>
      </div>
      {query.isPending ? (
        <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3" aria-hidden="true">
          {[0, 1, 2, 3, 4, 5].map((index) => (
            <div key={index} className="skeleton h-64" />
          ))}
        </div>
      ) : query.isError ? (
        <ErrorState message="Reviews could not be loaded right now." onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <EmptyState title={page > 1 ? 'No reviews on this page' : 'No reviews yet'}>
          <Link to={paths.allClasses} className="btn btn-primary">
            Browse classes
          </Link>
        </EmptyState>
      ) : (
        <>
          <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3" aria-label="Reviews">
            {query.data.items.map((review) => (
              <li key={review._id} className="min-w-0">
                <ReviewCard review={review} />
              </li>
            ))}
          </ul>
          <PageControls page={page} total={query.data.total} limit={REVIEWS_PAGE_SIZE} label="Reviews pages" />
        </>
      )}
    </div>
  );
}
