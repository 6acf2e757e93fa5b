import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { notify } from '../../../lib/toast.ts';
import { CATEGORY_LABELS } from '@skillhive/shared/rules/constants';
import { formatPrice } from '@skillhive/shared/rules/money';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { classQueryOptions } from '../../classes/api/get-classes.ts';
import { useCreateEnrollment } from '../api/enrollments.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { StarRating } from '../../../components/ui/star-rating.tsx';
import { CONFIRM_PRESETS, useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { FallbackImage } from '../../../components/ui/fallback-image.tsx';
import { REDIRECT_REASONS } from '../../auth/safe-return-path.ts';

/**
 * classDetails/:id (spec §2): the class with its teacher, price and rating, and Pay Now, which
 * creates the enrollment (POST /api/enrolled {enrollId, sectionId}; DESIGN §1.3–1.4) and opens the
 * payment page.
 */
export function ClassDetailsPage({
  classId,
  emailNotice,
  schedule,
  sectionId,
  canBuy = true,
}: {
  classId: string;
  /** The auth feature's notice for an unverified address: paying needs a verified one (decision 014). */
  emailNotice?: ReactNode;
  /** The sections feature's schedule, where a live class's section is picked (decision 042). */
  schedule?: ReactNode;
  /** The section picked there: Pay Now enrolls in it. */
  sectionId?: string | undefined;
  /** False while every section is full or closed: Pay Now is not offered. */
  canBuy?: boolean;
}) {
  const { user } = useAuth();
  const query = useQuery(classQueryOptions(classId));
  const enroll = useCreateEnrollment();
  const navigate = useNavigate();
  const location = useLocation();
  const [confirm, dialog] = useConfirm();
  const isOwnClass = Boolean(user && query.data && query.data.email === user.email);

  const payNow = async () => {
    if (!user) {
      // spec §8; DESIGN §1.10: "Yes, login!" goes to /login and back here.
      if ((await confirm(CONFIRM_PRESETS.notLoggedIn)) === 'confirmed') {
        navigate(paths.login, { state: { from: location, reason: REDIRECT_REASONS.signInToEnroll } });
      }
      return;
    }
    enroll.mutate(sectionId ? { enrollId: classId, sectionId } : classId, {
      onSuccess: (result) => {
        if (result?.status === 'paid') {
          notify.info('You have already paid for this class.');
          navigate(paths.dashboard.myEnrollClass);
          return;
        }
        notify.success(result?.created === false ? 'This class is already in your cart.' : 'Added to your cart.');
        navigate(paths.dashboard.payment);
      },
      onError: (error) => notify.error(errorMessage(error, 'We could not add this class to your cart.')),
    });
  };

  return (
    <div className="flex flex-col gap-6">
      <title>{`${query.data?.title ?? 'Class details'} — SkillHive`}</title>
      <QueryState query={query} what="class">
        {(data) => (
          <article className="card border border-base-300 bg-base-100 shadow-sm lg:card-side">
            <figure className="bg-base-200 lg:w-1/2">
              <FallbackImage
                src={data.image}
                alt={`Image of ${data.title}`}
                width={800}
                height={450}
                className="aspect-video h-full w-full object-cover"
              />
            </figure>
            <div className="card-body min-w-0 gap-3 p-5">
              <p className="grow-0 text-sm font-semibold uppercase tracking-wide text-primary">
                {CATEGORY_LABELS[data.category] ?? data.category}
              </p>
              <h1 className="text-2xl font-bold sm:text-3xl">{data.title}</h1>
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
                <dt className="font-semibold">Teacher</dt>
                <dd className="break-words">{data.name}</dd>
                <dt className="font-semibold">Email</dt>
                <dd className="break-all">{data.email}</dd>
                <dt className="font-semibold">Price</dt>
                <dd className="text-lg font-bold">{formatPrice(data.price)}</dd>
                <dt className="font-semibold">Rating</dt>
                <dd className="flex flex-wrap items-center gap-2">
                  {data.rating !== null ? (
                    <>
                      <StarRating value={data.rating} className="max-w-[120px]" />
                      <span className="text-sm text-muted">
                        {data.rating.toFixed(1)} ({data.reviewCount} {data.reviewCount === 1 ? 'review' : 'reviews'})
                      </span>
                    </>
                  ) : (
                    <span className="text-muted">No reviews yet</span>
                  )}
                </dd>
                <dt className="font-semibold">Students</dt>
                <dd>{data.totalEnrollment}</dd>
              </dl>
              <p className="grow-0 whitespace-pre-line break-words">{data.description}</p>
              <div className="card-actions mt-2 flex-col items-start">
                {isOwnClass ? null : schedule}
                {isOwnClass ? null : emailNotice}
                {isOwnClass ? (
                  // The server refuses enrolling in one's own class (DESIGN §1.4, a 409): do not offer it.
                  <p className="grow-0 text-muted">You teach this class.</p>
                ) : null}
                <BusyButton
                  className="btn-primary"
                  busy={enroll.isPending}
                  disabled={isOwnClass || !canBuy}
                  onClick={() => void payNow()}
                >
                  Pay Now
                </BusyButton>
              </div>
            </div>
          </article>
        )}
      </QueryState>
      {dialog}
    </div>
  );
}
