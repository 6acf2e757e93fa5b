import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Review } from '@skillhive/shared/contracts/reviews';
import { REVIEW_REPLY_MAX } from '@skillhive/shared/rules/constants';
import { ReviewReplyBody } from '@skillhive/shared/rules/review-form';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { TextareaField } from '../../../components/ui/form-field.tsx';
import { StarRating } from '../../../components/ui/star-rating.tsx';
import { CLASS_REVIEWS_PAGE_SIZE, classReviewsQueryOptions } from '../../classes/api/get-public-class.ts';
import { useSaveReviewReply } from '../../reviews/api/get-reviews.ts';
import { ReviewPager } from '../../reviews/review-pager.tsx';
import { TeacherReply } from '../../reviews/teacher-reply.tsx';

/**
 * The reviews of the teacher's class, each with the teacher's reply or a form to write it
 * (decision 046): one reply per review, edited in place afterwards.
 */
export function ClassReviewReplies({ classId }: { classId: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery(classReviewsQueryOptions(classId, page));
  const pageCount = Math.max(1, Math.ceil((query.data?.total ?? 0) / CLASS_REVIEWS_PAGE_SIZE));
  return (
    <section aria-labelledby="class-reviews-heading" className="flex flex-col gap-3">
      <h2 id="class-reviews-heading" className="text-xl font-semibold">
        Reviews{query.data ? ` (${query.data.total})` : ''}
      </h2>
      {query.isError ? (
        <p role="alert">Could not load the reviews: {errorMessage(query.error)}</p>
      ) : query.isPending ? (
        <p role="status">Loading reviews…</p>
      ) : query.data.items.length === 0 ? (
        <p className="text-muted">No reviews yet.</p>
      ) : (
        <>
          <ul className="flex flex-col gap-3">
            {query.data.items.map((review) => (
              <ReviewWithReply key={review._id} review={review} classId={classId} />
            ))}
          </ul>
          <ReviewPager page={page} pageCount={pageCount} onPage={setPage} />
        </>
      )}
    </section>
  );
}

function ReviewWithReply({ review, classId }: { review: Review; classId: string }) {
  const [editing, setEditing] = useState(false);
  return (
    <li className="flex flex-col gap-1 rounded-box border border-base-300 p-4">
      <p className="break-words font-semibold">{review.name}</p>
      <StarRating value={review.rating} className="max-w-[100px]" />
      {review.details ? <p className="whitespace-pre-line break-words">{review.details}</p> : null}
      {review.reply && !editing ? (
        <>
          <TeacherReply reply={review.reply} />
          <button type="button" className="btn btn-sm btn-ghost self-start" onClick={() => setEditing(true)}>
            Edit reply<span className="sr-only"> to {review.name}</span>
          </button>
        </>
      ) : (
        <ReplyForm review={review} classId={classId} onDone={() => setEditing(false)} />
      )}
    </li>
  );
}

function ReplyForm({ review, classId, onDone }: { review: Review; classId: string; onDone: () => void }) {
  const save = useSaveReviewReply();
  const hintId = useId();
  const [text, setText] = useState(review.reply?.text ?? '');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ReviewReplyBody.safeParse({ text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    save.mutate(
      { reviewId: review._id, classId, text: parsed.data.text, edit: review.reply !== null },
      {
        onSuccess: () => {
          notify.success('Your reply is shown under the review.');
          onDone();
        },
        onError: (failure) => notify.error(errorMessage(failure)),
      },
    );
  };
  return (
    <form className="flex flex-col gap-2" noValidate onSubmit={submit} aria-describedby={hintId}>
      <TextareaField
        label={`Your reply to ${review.name}`}
        rows={3}
        maxLength={REVIEW_REPLY_MAX}
        value={text}
        error={error}
        onChange={(event) => setText(event.target.value)}
      />
      <p id={hintId} className="text-sm text-muted">
        Shown publicly under the review. One reply per review; you can edit it later.
      </p>
      <div className="flex gap-2">
        <BusyButton type="submit" busy={save.isPending} className="btn-primary btn-sm">
          {review.reply ? 'Save reply' : 'Reply'}
        </BusyButton>
        {review.reply ? (
          <button type="button" className="btn btn-sm btn-ghost" onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
