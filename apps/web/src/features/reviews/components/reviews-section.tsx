import { useQuery } from '@tanstack/react-query';
import { useCarousel } from '../../../components/ui/use-carousel.ts';
import { CarouselArrowButton } from '../../../components/ui/carousel-buttons.tsx';
import { reviewsQueryOptions } from '../api/get-reviews.ts';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { countOf } from '../../../lib/plural.ts';
import { ReviewCard } from './review-card.tsx';

/** spec §2: the reviews carousel, last on the home page, with the number of reviews. */
export function ReviewsSection() {
  const query = useQuery(reviewsQueryOptions());
  const reviews = query.data?.items ?? [];
  const total = query.data?.total ?? 0;
  const { viewportRef, next, prev, onKeyDown, snapCount } = useCarousel(
    { loop: true, align: 'start' },
    'near-viewport',
  );

  return (
    <section aria-labelledby="reviews-title" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="reviews-title" className="text-2xl font-bold sm:text-3xl">
            What our learners say
          </h2>
          {query.isSuccess ? (
            <p className="mt-1 text-muted" data-testid="review-count">
              {countOf(total, 'review')}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {total > 0 ? (
            <Link to={paths.reviews} className="btn btn-outline btn-sm">
              See all reviews
            </Link>
          ) : null}
          {reviews.length > 1 && snapCount > 1 ? (
            <div className="flex gap-2">
              <CarouselArrowButton direction="previous" label="Previous review" onClick={prev} />
              <CarouselArrowButton direction="next" label="Next review" onClick={next} />
            </div>
          ) : null}
        </div>
      </div>

      {query.isPending ? (
        <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3" aria-hidden="true">
          {[0, 1, 2].map((index) => (
            <div key={index} className="skeleton h-64" />
          ))}
        </div>
      ) : query.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-4 rounded-box bg-base-200 p-6">
          <p>Reviews could not be loaded right now.</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void query.refetch()}>
            Try again
          </button>
        </div>
      ) : reviews.length === 0 ? (
        <p className="rounded-box bg-base-200 p-6">
          No reviews yet — be the first to take a class and share how it went.
        </p>
      ) : (
        <div
          ref={viewportRef}
          className="overflow-hidden rounded-box"
          tabIndex={0}
          role="region"
          aria-roledescription="carousel"
          aria-label="Learner reviews — use the left and right arrow keys to browse"
          onKeyDown={onKeyDown}
        >
          <ul className="-ml-6 flex touch-pan-y">
            {reviews.map((review, index) => (
              <li
                key={review._id}
                aria-roledescription="slide"
                aria-label={`Review ${index + 1} of ${reviews.length}`}
                className="min-w-0 flex-[0_0_100%] pl-6 md:flex-[0_0_50%] lg:flex-[0_0_33.333%]"
              >
                <ReviewCard review={review} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
