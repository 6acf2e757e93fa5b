import { lazy, Suspense, useState } from 'react';

const loadReviewForm = () => import('./review-form.tsx');
const ReviewForm = lazy(() => loadReviewForm().then((module) => ({ default: module.ReviewForm })));

/**
 * The review form of a paid class opens on demand (decision 005): My Enrolled Classes shows a
 * button, and the form — with react-hook-form and the review schema — is downloaded when it is
 * pressed (or hovered or focused, so it is usually there by the click).
 */
export function ReviewFormLoader({ classId, classTitle }: { classId: string; classTitle: string }) {
  const [open, setOpen] = useState(false);
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
      <ReviewForm classId={classId} classTitle={classTitle} autoFocus />
    </Suspense>
  );
}
