import { useId, useState, type FormEvent } from 'react';
import { notify } from '../../../lib/toast.ts';
import { REVIEW_DETAILS_MAX } from '@skillhive/shared/constants';
import { errorMessage } from '../../../lib/api-client.ts';
import { useCreateReview } from '../api/enrollments.ts';

const RATINGS = [1, 2, 3, 4, 5] as const;

/** A paid class's review: a 1–5 rating (a real radio group) and optional details. */
export function ReviewForm({ classId, classTitle }: { classId: string; classTitle: string }) {
  const id = useId();
  const [rating, setRating] = useState<number | null>(null);
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const review = useCreateReview();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (rating === null) {
      setError('Rating is required');
      return;
    }
    setError(null);
    review.mutate(
      { classId, rating, details: details.trim() },
      {
        onSuccess: () => notify.success('Thank you for your review!'),
        onError: (failure) => setError(errorMessage(failure, 'Your review could not be saved.')),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-3 rounded-box bg-base-200 p-3"
      aria-label={`Review ${classTitle}`}
    >
      <fieldset className="flex flex-col gap-1">
        <legend className="font-medium">Your rating</legend>
        <div className="rating rating-md">
          {RATINGS.map((value) => (
            <input
              key={value}
              type="radio"
              name={`${id}-rating`}
              value={value}
              checked={rating === value}
              onChange={() => setRating(value)}
              className="mask mask-star-2 bg-[#c26a00]"
              aria-label={`${value} ${value === 1 ? 'star' : 'stars'}`}
            />
          ))}
        </div>
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-details`} className="font-medium">
          Your review
        </label>
        <textarea
          id={`${id}-details`}
          rows={3}
          maxLength={REVIEW_DETAILS_MAX}
          className="textarea w-full"
          value={details}
          onChange={(event) => setDetails(event.target.value)}
        />
      </div>
      {error ? (
        <p role="alert" className="text-sm font-medium text-error">
          {error}
        </p>
      ) : null}
      <div>
        <button type="submit" className="btn btn-sm btn-primary" disabled={review.isPending}>
          {review.isSuccess ? 'Update review' : 'Submit review'}
        </button>
      </div>
    </form>
  );
}
