import { Link, useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatSessionStart } from '../../../lib/session-time.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useAuth } from '../../auth/auth-context.ts';
import { useCreateEnrollment } from '../../enrollments/api/enrollments.ts';
import { myWaitlistQueryOptions, useJoinWaitlist, useLeaveWaitlist } from '../api/waitlists.ts';

/**
 * A full section's waiting list on the class page (decision 051): "Full — join the waitlist" (a
 * visitor is asked to sign in first), then the person's place in it with "Leave", and, once a seat
 * is offered, until when it is held with "Enroll now", which carts the section and opens the
 * payment page. Its text is a live region: joining, leaving and an offer are announced.
 */
export function SectionWaitlist({
  classId,
  sectionId,
  sectionName,
}: {
  classId: string;
  sectionId: string;
  /** "Section 2": named in the buttons, so several full sections' buttons differ. */
  sectionName: string;
}) {
  const { user } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const mine = useQuery(myWaitlistQueryOptions(user));
  const join = useJoinWaitlist(classId);
  const leave = useLeaveWaitlist(classId);
  const enroll = useCreateEnrollment();
  const entry = mine.data?.find((item) => item.sectionId === sectionId);

  const onJoin = () =>
    join.mutate(sectionId, {
      onSuccess: (joined) => notify.success(`You are on the waiting list (position ${joined.position ?? 1}).`),
      onError: (error) => notify.error(errorMessage(error, 'We could not add you to the waiting list.')),
    });
  const onLeave = () =>
    leave.mutate(sectionId, {
      onSuccess: () => notify.info('You left the waiting list.'),
      onError: (error) => notify.error(errorMessage(error, 'We could not take you off the waiting list.')),
    });
  const onEnroll = () =>
    enroll.mutate(
      { enrollId: classId, sectionId },
      {
        onSuccess: () => {
          notify.success('Added to your cart: your seat is held while you pay.');
          navigate(paths.dashboard.payment);
        },
        onError: (error) => notify.error(errorMessage(error, 'We could not add this class to your cart.')),
      },
    );

  // The message is the live region; the buttons stay outside it, so only the news is announced.
  let message: string;
  let action;
  if (!user) {
    message = 'Full — join the waitlist.';
    action = (
      <Link to={paths.login} state={{ from: location }} className="link link-primary font-medium">
        Sign in to join the waiting list of {sectionName}
      </Link>
    );
  } else if (entry?.status === 'offered' && entry.offerExpiresAt) {
    message = `A seat is held for you until ${formatSessionStart(entry.offerExpiresAt)}.`;
    action = (
      <BusyButton className="btn-primary btn-sm" busy={enroll.isPending} onClick={onEnroll}>
        Enroll now
      </BusyButton>
    );
  } else if (entry?.status === 'waiting') {
    message = `You are on the waiting list (position ${entry.position ?? 1}).`;
    action = (
      <BusyButton
        className="btn-outline btn-sm"
        busy={leave.isPending}
        onClick={onLeave}
        aria-label={`Leave the waiting list of ${sectionName}`}
      >
        Leave
      </BusyButton>
    );
  } else {
    message = entry?.status === 'expired' ? 'The seat held for you ran out.' : 'This section is full.';
    action = (
      <BusyButton
        className="btn-secondary btn-sm"
        busy={join.isPending || mine.isPending}
        onClick={onJoin}
        aria-label={`Full — join the waitlist of ${sectionName}`}
      >
        Full — join the waitlist
      </BusyButton>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2 px-3 pb-2 text-sm" data-testid="section-waitlist">
      <p role="status" aria-live="polite" className={entry?.status === 'offered' ? 'font-medium' : ''}>
        {message}
      </p>
      {action}
    </div>
  );
}
