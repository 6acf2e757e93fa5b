import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { RescheduleOffer } from '@skillhive/shared/contracts/sections';
import { formatPrice } from '@skillhive/shared/rules/money';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatSessionStart } from '../../../lib/session-time.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { rescheduleOffersQueryOptions, useAnswerRescheduleOffer } from '../../sections/api/sections.ts';

/**
 * "The schedule changed — keep my seat / refund me" (decision 052): each open offer of the
 * signed-in student, with the section's new times in their own zone. Nothing is shown without one.
 */
export function RescheduleOffers() {
  const query = useQuery(rescheduleOffersQueryOptions(useUserScope()));
  if (!query.data || query.data.length === 0) return null;
  return (
    <section aria-label="Changes of schedule" className="flex flex-col gap-3">
      {query.data.map((offer) => (
        <OfferCard key={offer.enrollmentId} offer={offer} />
      ))}
    </section>
  );
}

function OfferCard({ offer }: { offer: RescheduleOffer }) {
  const headingId = useId();
  const answer = useAnswerRescheduleOffer();
  const choose = (choice: 'keep' | 'refund') =>
    answer.mutate(
      { enrollmentId: offer.enrollmentId, answer: choice },
      {
        onSuccess: (answered) =>
          notify.success(
            answered.answer === 'keep'
              ? 'You keep your seat'
              : answered.pending
                ? 'Your refund is on its way'
                : `You are refunded ${formatPrice(answered.refundedCents / 100)}`,
          ),
        onError: (error) => notify.error(errorMessage(error, 'Your answer could not be saved.')),
      },
    );
  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-2 rounded-box border border-warning bg-base-100 p-4"
      data-testid="reschedule-offer"
    >
      <h2 id={headingId} className="text-lg font-semibold">
        The schedule changed: {offer.title}
      </h2>
      <p>The new times, in your time zone:</p>
      <ul className="list-inside list-disc text-sm">
        {offer.sessions.map((session) => (
          <li key={`${session.title}-${session.startsAt}`}>
            {session.title}: {formatSessionStart(session.startsAt)}
          </li>
        ))}
      </ul>
      <p className="text-sm">
        Keep your seat, or be refunded {formatPrice(offer.amountCents / 100)} in full until{' '}
        {formatSessionStart(offer.openUntil)}.
      </p>
      <div className="flex flex-wrap gap-2">
        <BusyButton
          type="button"
          className="btn-primary btn-sm"
          busy={answer.isPending && answer.variables.answer === 'keep'}
          onClick={() => choose('keep')}
        >
          Keep my seat
        </BusyButton>
        <BusyButton
          type="button"
          className="btn-outline btn-sm"
          busy={answer.isPending && answer.variables.answer === 'refund'}
          onClick={() => choose('refund')}
        >
          Refund me
        </BusyButton>
      </div>
    </article>
  );
}
