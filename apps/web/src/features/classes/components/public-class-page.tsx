import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { EXPERIENCE_LABELS, type ExperienceLevel, type ReportTargetType } from '@skillhive/shared/rules/constants';
import { formatPrice } from '@skillhive/shared/rules/money';
import type { PublicClass } from '@skillhive/shared/contracts/classes';
import { paths } from '../../../config/paths.ts';
import { errorMessage, isApiError } from '../../../lib/api-client.ts';
import { StarRating } from '../../../components/ui/star-rating.tsx';
import { ErrorState } from '../../../components/ui/status-states.tsx';
import { Avatar } from '../../../components/ui/fallback-image.tsx';
import { ReviewPager } from '../../reviews/review-pager.tsx';
import { ClassAbout, ClassFigure, ClassHeadline, ClassPrice } from '../class-listing.tsx';
import { TeacherReply } from '../../reviews/teacher-reply.tsx';
import { CLASS_REVIEWS_PAGE_SIZE, classReviewsQueryOptions, publicClassQueryOptions } from '../api/get-public-class.ts';

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A "Report" control for something on the page (decision 043), given by the route: this feature only places it. */
export type RenderReport = (target: {
  targetType: ReportTargetType;
  targetId: string;
  label: string;
  ownerId?: string | undefined;
}) => ReactNode;

/** A way to write to the class's teacher (decision 045), given by the route: this feature only places it. */
export type RenderContact = (teacher: { classId: string; teacherId: string; teacherName: string }) => ReactNode;

/**
 * /classes/:id: an accepted class as anyone may see it — image, title, teacher with a
 * short bio and their other classes, description, price, rating with its breakdown, reviews a page
 * at a time, number of students — and `actions` (Pay Now, or Enrolled) from the enrollments feature.
 */
export function PublicClassPage({
  classId,
  actions,
  renderReport = () => null,
  renderContact = () => null,
}: {
  classId: string;
  /** What to offer for the class, given the class (its teacher is not offered Pay Now). */
  actions: (cls: PublicClass) => ReactNode;
  renderReport?: RenderReport;
  renderContact?: RenderContact;
}) {
  const query = useQuery(publicClassQueryOptions(classId));

  if (query.isPending) {
    return (
      <div className="flex flex-col gap-6" aria-busy="true">
        <title>Class — SkillHive</title>
        <h1 className="sr-only">Class</h1>
        <p role="status" className="sr-only">
          Loading the class…
        </p>
        <div className="skeleton aspect-video w-full max-w-3xl" />
        <div className="skeleton h-10 w-2/3" />
        <div className="skeleton h-24 w-full" />
      </div>
    );
  }
  if (query.isError) {
    if (isApiError(query.error) && query.error.status === 404) {
      return (
        <div className="mx-auto flex max-w-lg flex-col items-center gap-3 rounded-box bg-base-200 p-8 text-center">
          <title>Class not found — SkillHive</title>
          <h1 className="text-2xl font-bold">Class not found</h1>
          <p className="text-muted">This class is not available: it may have been removed, or the link is mistyped.</p>
          <Link to={paths.allClasses} className="btn btn-primary">
            Browse classes
          </Link>
        </div>
      );
    }
    return (
      <>
        <h1 className="sr-only">Class</h1>
        <ErrorState
          title="We could not load this class"
          message={errorMessage(query.error)}
          onRetry={() => void query.refetch()}
        />
      </>
    );
  }
  return <ClassView data={query.data} actions={actions} renderReport={renderReport} renderContact={renderContact} />;
}

function ClassView({
  data,
  actions,
  renderReport,
  renderContact,
}: {
  data: PublicClass;
  actions: (cls: PublicClass) => ReactNode;
  renderReport: RenderReport;
  renderContact: RenderContact;
}) {
  const { teacher } = data;
  const experience = teacher.experience
    ? (EXPERIENCE_LABELS[teacher.experience as ExperienceLevel] ?? teacher.experience)
    : null;
  const bio = [teacher.headline, experience].filter(Boolean).join(' · ');
  return (
    <article className="flex min-w-0 flex-col gap-8">
      <title>{`${data.title} — SkillHive`}</title>
      <div className="grid min-w-0 gap-6 lg:grid-cols-[3fr_2fr]">
        <ClassFigure src={data.image} />
        <div className="flex min-w-0 flex-col gap-3">
          <ClassHeadline listing={{ category: data.category, title: data.title, teacherName: teacher.name }} />
          <div className="flex flex-wrap items-center gap-2">
            {data.rating !== null ? (
              <>
                <StarRating value={data.rating} className="max-w-[120px]" />
                <span className="text-sm text-muted">
                  {data.rating.toFixed(1)} ({plural(data.reviewCount, 'review', 'reviews')})
                </span>
              </>
            ) : (
              <span className="text-sm text-muted">No reviews yet</span>
            )}
          </div>
          <p className="text-muted">{plural(data.totalEnrollment, 'student', 'students')} enrolled</p>
          <ClassPrice price={data.price} />
          <div className="flex flex-col items-start gap-2">{actions(data)}</div>
          {renderReport({
            targetType: 'class',
            targetId: data._id,
            label: `the class “${data.title}”`,
            ownerId: teacher._id,
          })}
        </div>
      </div>

      <div className="grid min-w-0 gap-8 lg:grid-cols-[3fr_2fr]">
        <div className="flex min-w-0 flex-col gap-8">
          <ClassAbout description={data.description} />
          <ClassReviews
            classId={data._id}
            teacherId={teacher._id}
            total={data.reviewCount}
            renderReport={renderReport}
          />
        </div>
        <div className="flex min-w-0 flex-col gap-8">
          <RatingBreakdown breakdown={data.ratingBreakdown} total={data.reviewCount} />
          <section aria-labelledby="teacher-heading" className="flex flex-col gap-3 rounded-box bg-base-200 p-4">
            <h2 id="teacher-heading" className="text-xl font-semibold">
              Your teacher
            </h2>
            <div className="flex items-center gap-3">
              <Avatar size={56} src={teacher.image} className="h-14 w-14 shrink-0 rounded-full object-cover" />
              <div className="min-w-0">
                <p className="break-words font-semibold">{teacher.name}</p>
                {bio ? <p className="break-words text-sm text-muted">{bio}</p> : null}
              </div>
            </div>
            {renderContact({ classId: data._id, teacherId: teacher._id, teacherName: teacher.name })}
            {renderReport({ targetType: 'user', targetId: teacher._id, label: `the teacher ${teacher.name}` })}
            {teacher.otherClasses.length > 0 ? (
              <>
                <h3 className="font-semibold">More classes by {teacher.name}</h3>
                <ul className="flex flex-col gap-2">
                  {teacher.otherClasses.map((other) => (
                    <li key={other._id} className="flex min-w-0 items-center justify-between gap-3">
                      <Link to={paths.classPage(other._id)} className="link min-w-0 break-words">
                        {other.title}
                      </Link>
                      <span className="shrink-0 text-sm font-semibold">{formatPrice(other.price)}</span>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </section>
        </div>
      </div>
    </article>
  );
}

/** Counts per star as labelled bars; the numbers are text, the bars only show them. */
function RatingBreakdown({ breakdown, total }: { breakdown: number[]; total: number }) {
  return (
    <section aria-labelledby="breakdown-heading" className="flex flex-col gap-2">
      <h2 id="breakdown-heading" className="text-xl font-semibold">
        Ratings
      </h2>
      {total === 0 ? (
        <p className="text-muted">No ratings yet.</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {[5, 4, 3, 2, 1].map((stars) => {
            const count = breakdown[stars - 1] ?? 0;
            return (
              <li key={stars} className="grid grid-cols-[4.5rem_1fr_3rem] items-center gap-2 text-sm">
                <span>{plural(stars, 'star', 'stars')}</span>
                <progress className="progress progress-warning w-full" value={count} max={total} aria-hidden="true" />
                <span className="text-right">
                  {count}
                  <span className="sr-only"> {count === 1 ? 'review' : 'reviews'}</span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function ClassReviews({
  classId,
  teacherId,
  total,
  renderReport,
}: {
  classId: string;
  /** The class's teacher, who wrote the replies: their own reply offers no Report. */
  teacherId: string;
  total: number;
  renderReport: RenderReport;
}) {
  const [page, setPage] = useState(1);
  const headingId = useId();
  const query = useQuery({ ...classReviewsQueryOptions(classId, page), enabled: total > 0 });
  const pageCount = Math.max(1, Math.ceil((query.data?.total ?? total) / CLASS_REVIEWS_PAGE_SIZE));
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold">
        Reviews
      </h2>
      {total === 0 ? (
        <p className="text-muted">No reviews yet. Students who take the class can review it.</p>
      ) : query.isError ? (
        <ErrorState message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <p role="status">Loading reviews…</p>
      ) : (
        <>
          <ul className={`flex flex-col gap-3 ${query.isPlaceholderData ? 'opacity-60' : ''}`}>
            {query.data.items.map((review) => (
              <li key={review._id} className="flex flex-col gap-1 rounded-box border border-base-300 p-4">
                <div className="flex flex-wrap items-center gap-2">
                  <Avatar size={32} src={review.image} className="h-8 w-8 rounded-full object-cover" />
                  <p className="break-words font-semibold">{review.name}</p>
                  <time dateTime={review.createdAt} className="text-sm text-muted">
                    {dateFormat.format(new Date(review.createdAt))}
                  </time>
                </div>
                <StarRating value={review.rating} className="max-w-[100px]" />
                {review.details ? <p className="whitespace-pre-line break-words">{review.details}</p> : null}
                {review.reply ? (
                  <TeacherReply reply={review.reply}>
                    {renderReport({
                      targetType: 'reply',
                      targetId: review.reply._id,
                      label: 'the teacher’s reply',
                      ownerId: teacherId,
                    })}
                  </TeacherReply>
                ) : null}
                <div>
                  {renderReport({ targetType: 'review', targetId: review._id, label: `the review by ${review.name}` })}
                </div>
              </li>
            ))}
          </ul>
          <ReviewPager page={page} pageCount={pageCount} onPage={setPage} />
        </>
      )}
    </section>
  );
}
