import { useId } from 'react';
import { Link } from 'react-router';
import { CATEGORY_LABELS } from '@skillhive/shared/rules/constants';
import { formatPrice } from '@skillhive/shared/rules/money';
import type { ClassItem } from '@skillhive/shared/contracts/classes';
import { paths } from '../../../config/paths.ts';
import { StarRating } from '../../../components/ui/star-rating.tsx';
import { FallbackImage } from '../../../components/ui/fallback-image.tsx';
import { formatSessionStart, viewerTimeZone } from '../../../lib/session-time.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';

/**
 * A live class's next start (decision 053), in the visitor's own zone, the zone named. Written after
 * hydration only — the server does not know the visitor's zone — into a line whose height is kept
 * from the first paint, so nothing moves.
 */
function NextStart({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  return (
    <p className="min-h-5 text-sm" data-testid="next-start">
      {hydrated ? (
        <>
          Next start: <time dateTime={iso}>{formatSessionStart(iso)}</time>{' '}
          <span className="text-muted">({viewerTimeZone()})</span>
        </>
      ) : null}
    </p>
  );
}

export function ClassCard({ item, eager = false }: { item: ClassItem; eager?: boolean }) {
  const titleId = useId();
  const enrolled = item.totalEnrollment;
  return (
    <article
      className="card h-full border border-base-300 bg-base-100 shadow-sm transition-shadow hover:shadow-md"
      aria-labelledby={titleId}
    >
      <figure className="aspect-video bg-base-200">
        <FallbackImage
          src={item.image}
          alt=""
          width={640}
          height={360}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="h-full w-full object-cover"
        />
      </figure>
      <div className="card-body gap-2 p-5">
        <p className="text-sm font-semibold uppercase tracking-wide text-primary">
          {CATEGORY_LABELS[item.category] ?? item.category}
        </p>
        <h2 id={titleId} className="card-title text-lg leading-snug">
          {item.title}
        </h2>
        <p className="text-muted">
          <span className="sr-only">Teacher: </span>
          {item.name}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          {item.rating !== null ? (
            <>
              <StarRating value={item.rating} className="max-w-[110px]" />
              <span className="text-sm text-muted">
                {item.rating.toFixed(1)} ({item.reviewCount} {item.reviewCount === 1 ? 'review' : 'reviews'})
              </span>
            </>
          ) : (
            <span className="text-sm text-muted">No reviews yet</span>
          )}
        </div>
        <p className="text-sm text-muted">
          {enrolled} {enrolled === 1 ? 'student' : 'students'} enrolled
        </p>
        {item.nextSessionAt ? <NextStart iso={item.nextSessionAt} /> : null}
        <div className="mt-auto flex items-center justify-between gap-3 pt-2">
          <p className="text-xl font-bold" data-testid="class-price">
            <span className="sr-only">Price: </span>
            {formatPrice(item.price)}
          </p>
          <Link to={paths.classPage(item._id)} className="btn btn-primary" aria-describedby={titleId}>
            Enroll Now
          </Link>
        </div>
      </div>
    </article>
  );
}

export function ClassCardSkeleton() {
  return (
    <div className="card border border-base-300 bg-base-100" aria-hidden="true">
      <div className="skeleton aspect-video rounded-b-none" />
      <div className="card-body gap-3 p-5">
        <div className="skeleton h-4 w-24" />
        <div className="skeleton h-6 w-full" />
        <div className="skeleton h-4 w-32" />
        <div className="skeleton h-4 w-40" />
        <div className="mt-2 flex justify-between">
          <div className="skeleton h-8 w-20" />
          <div className="skeleton h-10 w-28" />
        </div>
      </div>
    </div>
  );
}
