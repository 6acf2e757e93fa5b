import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Enrollment } from '@skillhive/shared/contracts/enrollments';
import { isWithinRefundWindow } from '@skillhive/shared/rules/refunds';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { ReasonDialogOnDemand } from '../../../components/ui/reason-dialog-on-demand.tsx';
import { myRefundRequestsQueryOptions, useRequestRefund } from '../../refunds/api/refunds.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

/**
 * On a paid enrollment: "Request a refund" while the line is within the refund
 * window and nothing was asked yet; afterwards, the request's state (and an admin's reason when
 * it was declined).
 */
export function RefundRequestControl({ item, describedBy }: { item: Enrollment; describedBy: string }) {
  const user = useUserScope();
  const mine = useQuery(myRefundRequestsQueryOptions(user));
  const ask = useRequestRefund();
  const [open, setOpen] = useState(false);
  if (!mine.data || item.status !== 'paid') return null;

  const request = mine.data.requests.find((r) => r.enrollmentId === item._id);
  if (request) {
    const text =
      request.status === 'pending'
        ? 'Refund requested: waiting for a decision.'
        : request.status === 'approved'
          ? 'Refund approved.'
          : `Refund declined${request.decisionReason ? `: ${request.decisionReason}` : '.'}`;
    return (
      <p className="text-sm" data-testid="refund-request-state">
        {text}
      </p>
    );
  }
  const paidAt = item.paidAt ? new Date(item.paidAt) : null;
  if (!paidAt || !isWithinRefundWindow(paidAt, new Date(), mine.data.windowDays)) return null;
  const until = new Date(paidAt.getTime() + mine.data.windowDays * 86_400_000);

  return (
    <>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-describedby={describedBy}
        onClick={() => setOpen(true)}
      >
        Request a refund
      </button>
      <ReasonDialogOnDemand
        open={open}
        title={`Request a refund of “${item.title}”?`}
        description={`You can ask until ${dateFormat.format(until)}. An admin decides; you keep access until then.`}
        action="Request refund"
        hint="An admin reads this reason."
        busy={ask.isPending}
        onCancel={() => setOpen(false)}
        onSubmit={(reason) =>
          ask.mutate(
            { enrollmentId: item._id, reason },
            {
              onSuccess: () => {
                setOpen(false);
                notify.success('Your refund request was sent.');
              },
              onError: (error) => notify.error(errorMessage(error)),
            },
          )
        }
      />
    </>
  );
}
