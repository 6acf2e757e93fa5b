import type { Review } from '@skillhive/shared/contracts/reviews';
import { StarRating } from '../../../components/ui/star-rating.tsx';
import { Avatar } from '../../../components/ui/fallback-image.tsx';
import { TeacherReply } from '../teacher-reply.tsx';

/** One learner's review: photo, name, class, stars and words (home carousel and /reviews). */
export function ReviewCard({ review }: { review: Review }) {
  return (
    <figure className="flex h-full flex-col gap-4 rounded-box border border-base-300 bg-base-100 p-6 shadow-sm">
      <div className="flex items-center gap-4">
        <Avatar
          size={64}
          src={review.image}
          loading="lazy"
          decoding="async"
          className="h-16 w-16 rounded-full object-cover ring-2 ring-accent"
        />
        <figcaption className="min-w-0">
          <p className="font-semibold">{review.name}</p>
          {review.classTitle ? <p className="text-sm text-muted">on {review.classTitle}</p> : null}
        </figcaption>
      </div>
      <StarRating value={review.rating} />
      <blockquote className="text-base leading-relaxed">
        <p>{review.details || 'No written review.'}</p>
      </blockquote>
      {review.reply ? <TeacherReply reply={review.reply} /> : null}
    </figure>
  );
}
