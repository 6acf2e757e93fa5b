import { lazy, Suspense, useState } from 'react';
import type { MyReview } from '@skillhive/shared/contracts/reviews';
import { StarRating } from '../../../components/ui/star-rating.tsx';

const loadReviewForm = () => import('./review-form.tsx');
const ReviewForm = lazy(() => loadReviewForm().then((module) => ({ default: module.ReviewForm })));

/**
 * The review form of a paid class opens on demand (decision 005): My Enrolled Classes shows a
 * button, and the form — with react-hook-form and the review schema — is downloaded when it is
 * pressed (or hovered or focused, so it is usually there by the click).
 */
export function ReviewFormLoader({
  classId,
  classTitle,
  review,
}: {
  classId: string;
  classTitle: string;
  /** The student's own review of the class: shown, and the form opens filled in to edit it. */
  review: Pick<MyReview, 'rating' | 'details' | 'hidden'> | null;
}) {
  const [open, setOpen] = useState(false);
  if (!open && review) {
    return (
      <div className="flex flex-col items-start gap-1" data-testid="my-review">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">Your review</span>
          <StarRating value={review.rating} className="max-w-[100px]" />
        </div>
        {review.details ? <p className="line-clamp-2 break-words text-sm text-muted">{review.details}</p> : null}
        {review.hidden ? (
          <p className="text-sm text-muted">Hidden by a moderator: it is not shown on the class page.</p>
        ) : null}
        <button
          type="button"
          className="btn btn-sm btn-outline"
          aria-label={`Edit your review of ${classTitle}`}
          onPointerEnter={() => void loadReviewForm()}
          onFocus={() => void loadReviewForm()}
          onClick={() => setOpen(true)}
        >
          Edit your review
        </button>
      </div>
    );
  }
  if (!open) {
    return (
      <div>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          aria-label={`Write a review of ${classTitle}`}
          onPointerEnter={() => void loadReviewForm()}
          onFocus={() => void loadReviewForm()}
          onClick={() => setOpen(true)}
        >
          Write a review
        </button>
      </div>
    );
  }
  return (
    <Suspense
      fallback={
        <div role="status" className="flex items-center gap-2 rounded-box bg-base-200 p-3 text-muted">
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          Opening the review form…
        </div>
      }
    >
      <ReviewForm
        classId={classId}
        classTitle={classTitle}
        initial={review ? { rating: review.rating, details: review.details } : null}
        onSaved={() => setOpen(false)}
        autoFocus
      />
    </Suspense>
  );
}
