import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { REVIEW_DETAILS_MAX } from '@skillhive/shared/rules/constants';
import { ReviewFormBody } from '@skillhive/shared/rules/review-form';
import { notify } from '../../../lib/toast.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { TextareaField } from '../../../components/ui/form-field.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useCreateReview } from '../api/enrollments.ts';

type ReviewFormInput = z.input<typeof ReviewFormBody>;

const RATINGS = [1, 2, 3, 4, 5] as const;

/**
 * A paid class's review through the shared ReviewFormBody: a 1–5 rating (native radio inputs,
 * registered like any field — no Controller, so that code stays out of the
 * bundle) and optional details. Loaded on
 * demand (review-form-loader.tsx), so react-hook-form is not part of My Enrolled Classes' first load.
 */
export function ReviewForm({
  classId,
  classTitle,
  initial = null,
  autoFocus = false,
  onSaved,
}: {
  classId: string;
  classTitle: string;
  /** The student's earlier review: the form edits it (POST /api/reviews again). */
  initial?: { rating: number; details: string } | null;
  /** Called once the server stored the review (the card then shows it). */
  onSaved?: () => void;
  /** Opened by a button press: focus moves to the first star. */
  autoFocus?: boolean;
}) {
  const id = useId();
  const [formError, setFormError] = useState<string | null>(null);
  const review = useCreateReview();
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<ReviewFormInput, unknown, ReviewFormBody>({
    resolver: zodResolver(ReviewFormBody),
    defaultValues: initial ? { rating: String(initial.rating), details: initial.details } : { details: '' },
  });
  useEffect(() => {
    if (autoFocus) setFocus('rating');
  }, [autoFocus, setFocus]);

  const submit = handleSubmit((values) => {
    setFormError(null);
    review.mutate(
      { classId, ...values },
      {
        onSuccess: () => {
          notify.success(initial ? 'Your review was updated.' : 'Thank you for your review!');
          onSaved?.();
        },
        onError: (failure) => setFormError(errorMessage(failure, 'Your review could not be saved.')),
      },
    );
  });

  const ratingError = errors.rating?.message;
  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-3 rounded-box bg-base-200 p-3"
      aria-label={`Review ${classTitle}`}
    >
      <fieldset className="flex flex-col gap-1" aria-describedby={ratingError ? `${id}-rating-error` : undefined}>
        <legend className="font-medium">Your rating</legend>
        <div className="rating rating-md">
          {RATINGS.map((value) => (
            <input
              key={value}
              type="radio"
              value={value}
              {...register('rating')}
              className="mask mask-star-2 bg-[#c26a00]"
              aria-label={`${value} ${value === 1 ? 'star' : 'stars'}`}
            />
          ))}
        </div>
        {ratingError ? (
          <p id={`${id}-rating-error`} className="text-sm font-medium text-error">
            {ratingError}
          </p>
        ) : null}
      </fieldset>
      <TextareaField
        label="Your review"
        rows={3}
        maxLength={REVIEW_DETAILS_MAX}
        error={errors.details?.message}
        {...register('details')}
      />
      {formError ? (
        <p role="alert" className="text-sm font-medium text-error">
          {formError}
        </p>
      ) : null}
      <div>
        <BusyButton type="submit" className="btn-sm btn-primary" busy={review.isPending}>
          {initial || review.isSuccess ? 'Update review' : 'Submit review'}
        </BusyButton>
      </div>
    </form>
  );
}
