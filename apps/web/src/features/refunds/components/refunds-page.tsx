import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AdminPayment, RefundRequest } from '@skillhive/shared/contracts/refunds';
import { REFUND_REQUEST_STATUSES, type RefundRequestStatus } from '@skillhive/shared/rules/constants';
import { centsToDecimal, formatPrice } from '@skillhive/shared/rules/money';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { confirmApproveRefundOf, useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { ReasonDialogOnDemand } from '../../../components/ui/reason-dialog-on-demand.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import {
  REFUND_REQUESTS_PAGE_SIZE,
  paymentSearchQueryOptions,
  refundRequestsQueryOptions,
  useDecideRefundRequest,
  useRefundPayment,
} from '../api/refunds.ts';
import { countOf } from '../../../lib/plural.ts';
import { PendingRefundsSection } from './pending-refunds-section.tsx';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const cents = (amount: number) => formatPrice(centsToDecimal(amount));
const when = (iso: string) => <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time>;

const STATE_BADGE: Record<RefundRequestStatus, string> = {
  pending: 'badge-warning',
  approved: 'badge-success',
  declined: 'badge-ghost',
};
const LINE_BADGE: Record<string, string> = { paid: 'badge-success', refunded: 'badge-info', pending: 'badge-warning' };
const capitalise = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** The admin's Refunds page: students' requests to decide, and refunds of any payment. */
export function RefundsPage() {
  return (
    <div className="flex flex-col gap-8">
      <title>Refunds — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Refunds</h1>
        <p className="text-muted">
          Decide students’ refund requests, or refund a payment in full or one class of it. The student loses access at
          once and can buy the class again.
        </p>
      </div>
      <RefundRequestsSection />
      <PendingRefundsSection />
      <RefundPaymentSection />
    </div>
  );
}

function RefundRequestsSection() {
  const headingId = useId();
  const filterId = useId();
  const user = useUserScope();
  const page = usePageParam('requestsPage');
  const [status, setStatus] = useState<RefundRequestStatus | 'all'>('pending');
  const query = useQuery(refundRequestsQueryOptions(user, status, page));
  const decide = useDecideRefundRequest();
  const [declining, setDeclining] = useState<RefundRequest | null>(null);
  const [confirm, confirmDialog] = useConfirm();

  // Money goes back: asked first, as making someone admin is.
  const approve = async (request: RefundRequest) => {
    const answer = await confirm(
      confirmApproveRefundOf(cents(request.priceCents), request.title, request.studentEmail),
    );
    if (answer !== 'confirmed') return;
    decide.mutate(
      { id: request._id, decision: 'approve' },
      {
        onSuccess: ({ inProgress }) =>
          notify.success(
            inProgress
              ? `Approved: the refund of ${cents(request.priceCents)} for “${request.title}” is in progress and completes by itself.`
              : `Refunded ${cents(request.priceCents)} for “${request.title}”.`,
          ),
        onError: (error) => notify.error(errorMessage(error)),
      },
    );
  };
  const decline = (request: RefundRequest, reason: string) =>
    decide.mutate(
      { id: request._id, decision: 'decline', reason },
      {
        onSuccess: () => {
          setDeclining(null);
          notify.success(`The request for “${request.title}” was declined.`);
        },
        onError: (error) => notify.error(errorMessage(error)),
      },
    );

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={headingId} className="text-xl font-bold">
          Refund requests
        </h2>
        <div className="flex flex-col gap-1">
          <label htmlFor={filterId} className="font-medium">
            Show
          </label>
          <select
            id={filterId}
            className="select select-sm"
            value={status}
            onChange={(event) => setStatus(event.target.value as RefundRequestStatus | 'all')}
          >
            {REFUND_REQUEST_STATUSES.map((s) => (
              <option key={s} value={s}>
                {capitalise(s)}
              </option>
            ))}
            <option value="all">All</option>
          </select>
        </div>
      </div>
      <PagedQueryState query={query} what="refund requests" empty="No refund requests here.">
        {(data) => (
          <>
            <DataTable
              label="Refund requests, newest first"
              columns={['Class and student', 'Amount', 'Reason', 'State', 'Decide']}
            >
              {data.items.map((request) => (
                <tr key={request._id}>
                  {/* Secondary facts on a second line: the table fits its column (DataTable). */}
                  <th scope="row" className="min-w-40 font-medium">
                    <span className="block break-words">{request.title}</span>
                    <span className="block break-all text-sm font-normal text-muted">{request.studentEmail}</span>
                    <span className="block text-sm font-normal text-muted">{when(request.createdAt)}</span>
                  </th>
                  <td className="whitespace-nowrap">{cents(request.priceCents)}</td>
                  <td className="min-w-40 break-words">{request.reason}</td>
                  <td>
                    <span className={`badge ${STATE_BADGE[request.status]}`}>{capitalise(request.status)}</span>
                    {request.decisionReason ? (
                      <span className="block text-sm text-muted">{request.decisionReason}</span>
                    ) : null}
                  </td>
                  <td>
                    {request.status === 'pending' ? (
                      <div className="flex flex-wrap gap-2">
                        <BusyButton
                          className="btn-sm btn-primary"
                          busy={decide.isPending && decide.variables?.id === request._id}
                          aria-label={`Approve the refund of ${request.title} for ${request.studentEmail}`}
                          onClick={() => void approve(request)}
                        >
                          Approve
                        </BusyButton>
                        <button
                          type="button"
                          className="btn btn-sm btn-outline"
                          aria-label={`Decline the refund of ${request.title} for ${request.studentEmail}`}
                          onClick={() => setDeclining(request)}
                        >
                          Decline
                        </button>
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </DataTable>
            <PageControls
              page={page}
              total={data.total}
              limit={REFUND_REQUESTS_PAGE_SIZE}
              label="Refund request pages"
              name="requestsPage"
            />
          </>
        )}
      </PagedQueryState>
      <ReasonDialogOnDemand
        open={declining !== null}
        title={declining ? `Decline the refund of “${declining.title}”?` : null}
        action="Decline"
        hint="The student sees this reason."
        busy={decide.isPending}
        danger
        onCancel={() => setDeclining(null)}
        onSubmit={(reason) => declining && decline(declining, reason)}
      />
      {confirmDialog}
    </section>
  );
}

type RefundTarget = { payment: AdminPayment; line: AdminPayment['lines'][number] | null };

function RefundPaymentSection() {
  const headingId = useId();
  const searchId = useId();
  const user = useUserScope();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const query = useQuery(paymentSearchQueryOptions(user, q));
  const refund = useRefundPayment();
  const [target, setTarget] = useState<RefundTarget | null>(null);

  const submitSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQ(draft.trim());
  };
  const send = ({ payment, line }: RefundTarget, reason: string) =>
    refund.mutate(
      { paymentId: payment._id, reason, ...(line ? { enrollmentId: line._id } : {}) },
      {
        onSuccess: (answer) => {
          setTarget(null);
          const pendingCents = answer.refunds
            .filter((item) => item.status === 'pending')
            .reduce((sum, item) => sum + item.amountCents, 0);
          notify.success(
            answer.inProgress
              ? `${answer.refundedCents > 0 ? `Refunded ${cents(answer.refundedCents)}; the` : 'The'} refund of ${cents(pendingCents)} is in progress and completes by itself.`
              : `Refunded ${cents(answer.refundedCents)}.`,
          );
        },
        onError: (error) => notify.error(errorMessage(error)),
      },
    );

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-bold">
        Refund a payment
      </h2>
      <form role="search" className="flex flex-wrap items-end gap-2" onSubmit={submitSearch}>
        <div className="flex grow flex-col gap-1 sm:max-w-md">
          <label htmlFor={searchId} className="font-medium">
            Student e-mail or transaction id
          </label>
          <input
            id={searchId}
            className="input w-full"
            value={draft}
            maxLength={254}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={draft.trim().length === 0}>
          Find payments
        </button>
      </form>
      {q ? (
        <PagedQueryState query={query} what="payments" empty={`No payment matches “${q}”.`}>
          {(data) => (
            <ul className="flex flex-col gap-4">
              {data.items.map((payment) => (
                <li key={payment._id}>
                  <PaymentCard payment={payment} onRefund={(line) => setTarget({ payment, line })} />
                </li>
              ))}
            </ul>
          )}
        </PagedQueryState>
      ) : null}
      <ReasonDialogOnDemand
        open={target !== null}
        title={
          target === null
            ? null
            : target.line
              ? `Refund “${target.line.title}” (${cents(target.line.priceCents)})?`
              : 'Refund every class still paid in this payment?'
        }
        description={target ? `Payment ${target.payment.transactionId} of ${target.payment.email}.` : undefined}
        action="Refund"
        hint="Kept in the audit log and sent to the student with the refund."
        busy={refund.isPending}
        danger
        onCancel={() => setTarget(null)}
        onSubmit={(reason) => target && send(target, reason)}
      />
    </section>
  );
}

function PaymentCard({
  payment,
  onRefund,
}: {
  payment: AdminPayment;
  onRefund: (line: AdminPayment['lines'][number] | null) => void;
}) {
  const titleId = useId();
  const paidLines = payment.lines.filter((line) => line.status === 'paid');
  return (
    <article aria-labelledby={titleId} className="flex flex-col gap-3 rounded-box border border-base-300 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={titleId} className="font-semibold break-all">
            {payment.transactionId}
          </h3>
          <p className="text-sm text-muted">
            {payment.email} · {when(payment.paidAt)} · {payment.gateway}
          </p>
        </div>
        <p className="text-right">
          Paid <strong>{cents(payment.amountCents)}</strong>
          {payment.refundedCents > 0 ? (
            <span className="block text-sm">Refunded {cents(payment.refundedCents)}</span>
          ) : null}
        </p>
      </div>
      <DataTable label={`Classes of payment ${payment.transactionId}`} columns={['Class', 'Price', 'State', 'Refund']}>
        {payment.lines.map((line) => (
          <tr key={line._id}>
            <th scope="row" className="min-w-40 font-medium">
              {line.title}
            </th>
            <td className="whitespace-nowrap">{cents(line.priceCents)}</td>
            <td>
              <span className={`badge ${LINE_BADGE[line.status] ?? 'badge-ghost'}`}>{capitalise(line.status)}</span>
            </td>
            <td>
              {line.status === 'paid' ? (
                <button
                  type="button"
                  className="btn btn-sm btn-outline btn-error"
                  aria-label={`Refund ${line.title}`}
                  onClick={() => onRefund(line)}
                >
                  Refund
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </DataTable>
      {paidLines.length > 1 ? (
        <div>
          <button type="button" className="btn btn-sm btn-error" onClick={() => onRefund(null)}>
            Refund all {countOf(paidLines.length, 'class', 'classes')} (
            {cents(paidLines.reduce((sum, line) => sum + line.priceCents, 0))})
          </button>
        </div>
      ) : null}
    </article>
  );
}
