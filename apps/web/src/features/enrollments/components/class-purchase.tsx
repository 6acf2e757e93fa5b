import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { notify } from '../../../lib/toast.ts';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { classEnrollmentQueryOptions, useCreateEnrollment } from '../api/enrollments.ts';
import { CONFIRM_PRESETS, useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';

/**
 * What the public class page offers: Pay Now, which adds the class to the cart and
 * opens the payment page (as classDetails/:id does, spec §2); the spec's "You are not Logged In"
 * dialog for a visitor, whose "Yes, login!" comes back here after signing in (DESIGN §1.10); and,
 * once paid, "Enrolled" with the way into the class instead of Pay Now.
 */
export function ClassPurchase({
  classId,
  teacherId,
  emailNotice,
  sectionId,
  canBuy = true,
}: {
  classId: string;
  /** The class's teacher: they are shown the way to manage it, not Pay Now (the server refuses it, DESIGN §1.4). */
  teacherId: string;
  /** The auth feature's notice for an unverified address: paying needs a verified one. */
  emailNotice?: ReactNode;
  /** The section the buyer picked on the schedule (decision 042); none for a self-paced class. */
  sectionId?: string | undefined;
  /** False while no section can be bought (every one full or closed): Pay Now is not offered. */
  canBuy?: boolean;
}) {
  const { user, loading } = useAuth();
  const ownClass = user !== null && user.id === teacherId;
  const enrollment = useQuery({ ...classEnrollmentQueryOptions(user, classId), enabled: user !== null && !ownClass });
  const enroll = useCreateEnrollment();
  const navigate = useNavigate();
  const location = useLocation();
  const [confirm, dialog] = useConfirm();

  if (ownClass) {
    return (
      <p className="flex flex-wrap items-center gap-2" data-testid="class-own">
        <span>This is your class</span>
        <span aria-hidden="true">·</span>
        <Link to={paths.dashboard.myClassDetails(classId)} className="link link-primary font-semibold">
          Manage
        </Link>
      </p>
    );
  }

  if (user && enrollment.data?.status === 'paid') {
    return (
      <div className="flex flex-col items-start gap-2" data-testid="class-enrolled">
        <p className="badge badge-success badge-lg">Enrolled</p>
        <Link to={paths.dashboard.myEnrollClassDetails(classId)} className="btn btn-primary">
          Go to your class
        </Link>
      </div>
    );
  }

  const payNow = async () => {
    if (!user) {
      if ((await confirm(CONFIRM_PRESETS.notLoggedIn)) === 'confirmed') {
        navigate(paths.login, { state: { from: location } });
      }
      return;
    }
    enroll.mutate(sectionId ? { enrollId: classId, sectionId } : classId, {
      onSuccess: (result) => {
        if (result?.status === 'paid') {
          notify.info('You have already paid for this class.');
          return;
        }
        notify.success(result?.created === false ? 'This class is already in your cart.' : 'Added to your cart.');
        navigate(paths.dashboard.payment);
      },
      onError: (error) => notify.error(errorMessage(error, 'We could not add this class to your cart.')),
    });
  };

  const inCart = user !== null && enrollment.data?.status === 'pending';
  if (!canBuy && !inCart) return null;
  return (
    <>
      {user ? emailNotice : null}
      {inCart ? <p className="text-sm text-muted">This class is in your cart.</p> : null}
      <BusyButton
        className="btn-primary btn-lg"
        busy={enroll.isPending || (user !== null && enrollment.isPending) || loading}
        onClick={() => void payNow()}
      >
        Pay Now
      </BusyButton>
      {dialog}
    </>
  );
}
