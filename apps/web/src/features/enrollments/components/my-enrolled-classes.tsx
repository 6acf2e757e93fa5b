import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Enrollment } from '@skillhive/shared/contracts/enrollments';
import { PAYMENT_MESSAGES } from '@skillhive/shared/rules/cards';
import { formatPrice } from '@skillhive/shared/rules/money';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import {
  ENROLLMENTS_PAGE_SIZE,
  enrollmentsQueryOptions,
  myReviewsQueryOptions,
  paidEnrollmentCountQueryOptions,
} from '../api/enrollments.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';
import { usePageParam } from '../../../components/ui/page-controls.tsx';
import { ReviewFormLoader } from './review-form-loader.tsx';
import { RefundRequestControl } from './refund-request-control.tsx';
import { ENROLLMENT_STATUS } from '../../../components/ui/enrollment-status.ts';
import { ClassCardGrid, ClassImageCard } from '../../../components/ui/class-image-card.tsx';
import { RescheduleOffers } from './reschedule-offers.tsx';

/** myEnrollClass (spec §2): the total, and a card per enrollment; pending ones can be paid. */
export function MyEnrolledClasses() {
  const { user } = useAuth();
  const page = usePageParam();
  const query = useQuery(enrollmentsQueryOptions(user, page));
  const paidCount = useQuery(paidEnrollmentCountQueryOptions(user));

  return (
    <div className="flex flex-col gap-5">
      <title>My Enrolled Classes — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">My enrolled classes</h1>
        <p className="text-lg" data-testid="enrolled-total">
          Total enrolled: <strong>{paidCount.data ?? '…'}</strong>
        </p>
      </div>
      <RescheduleOffers />
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <FetchError what="your classes" error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <div className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-6">
          <p>You have not enrolled in a class yet.</p>
          <Link to={paths.allClasses} className="btn btn-primary">
            Browse classes
          </Link>
        </div>
      ) : (
        <ClassCardGrid
          items={query.data.items}
          page={page}
          total={query.data.total}
          limit={ENROLLMENTS_PAGE_SIZE}
          label="Enrolled classes pages"
        >
          {(item) => <EnrollmentCard item={item} />}
        </ClassCardGrid>
      )}
    </div>
  );
}

function EnrollmentCard({ item }: { item: Enrollment }) {
  const titleId = useId();
  const { user } = useAuth();
  const myReviews = useQuery({ ...myReviewsQueryOptions(user), enabled: user !== null && item.status === 'paid' });
  const paid = item.status === 'paid';
  return (
    <ClassImageCard
      titleId={titleId}
      title={item.title}
      image={item.image}
      badge={
        <span className={`badge ${ENROLLMENT_STATUS[item.status].badge}`}>{ENROLLMENT_STATUS[item.status].label}</span>
      }
    >
      <p className="grow-0 text-muted">
        <span className="sr-only">Teacher: </span>
        {item.name}
      </p>
      <p className="grow-0 font-semibold">{formatPrice(item.price)}</p>
      {paid ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <p className="grow-0 font-medium text-success">Enrolled</p>
            <Link
              to={paths.dashboard.myEnrollClassDetails(item.enrollId)}
              className="btn btn-primary btn-sm"
              aria-describedby={titleId}
            >
              Open class
            </Link>
          </div>
          {myReviews.isPending ? null : (
            <ReviewFormLoader
              classId={item.enrollId}
              classTitle={item.title}
              review={myReviews.data?.get(item.enrollId) ?? null}
            />
          )}
          <RefundRequestControl item={item} describedBy={titleId} />
        </>
      ) : item.status === 'refunded' ? (
        <p className="text-sm text-muted">
          This class was refunded; you can enroll in it again from{' '}
          <Link to={paths.classPage(item.enrollId)} className="link">
            its page
          </Link>
          .
        </p>
      ) : !item.available ? (
        <div className="card-actions mt-auto flex-col items-start">
          <p className="text-sm font-medium text-error">{PAYMENT_MESSAGES.classUnavailable}</p>
          <Link to={paths.dashboard.payment} className="btn btn-outline btn-sm" aria-describedby={titleId}>
            Remove from cart
          </Link>
        </div>
      ) : (
        <div className="card-actions mt-auto">
          <Link to={paths.dashboard.payment} className="btn btn-primary btn-sm" aria-describedby={titleId}>
            Buy Now
          </Link>
        </div>
      )}
    </ClassImageCard>
  );
}
