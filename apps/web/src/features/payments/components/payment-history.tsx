import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { PaymentHistoryEntry } from '@skillhive/shared/contracts/payments';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { PAYMENT_HISTORY_PAGE_SIZE, paymentHistoryQueryOptions } from '../api/payment-history.ts';
import { FetchError } from '../../../components/ui/query-state.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { formatCents, formatPaymentDate, paymentStatusLabel, refundedTitle } from './payment-format.ts';
import { ENROLLMENT_STATUS } from '../../../components/ui/enrollment-status.ts';

/** paymentHistory: every payment of the signed-in person, newest first, each with its receipt. */
export function PaymentHistory() {
  const { user } = useAuth();
  const page = usePageParam();
  const query = useQuery(paymentHistoryQueryOptions(user, page));

  return (
    <div className="flex flex-col gap-5">
      <title>Payment History — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Payment history</h1>
        <p className="text-muted">Every payment you made, with its classes, refunds and receipt.</p>
      </div>
      {query.isPending ? (
        <HistorySkeleton />
      ) : query.isError ? (
        <FetchError what="your payments" error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <div className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-6">
          <h2 className="text-lg font-semibold">You have not made a payment yet</h2>
          <p>Classes you pay for show here with their receipts.</p>
          <Link to={paths.allClasses} className="btn btn-primary">
            Browse classes
          </Link>
        </div>
      ) : (
        <>
          <p className="sr-only" aria-live="polite">
            {query.data.total} {query.data.total === 1 ? 'payment' : 'payments'}
          </p>
          <ul className="flex flex-col gap-4" aria-label="Payments">
            {query.data.items.map((entry) => (
              <li key={entry._id}>
                <PaymentCard entry={entry} />
              </li>
            ))}
          </ul>
          <PageControls
            page={page}
            total={query.data.total}
            limit={PAYMENT_HISTORY_PAGE_SIZE}
            label="Payment history pages"
          />
        </>
      )}
    </div>
  );
}

/** While the first page loads: the shape of two payments, announced as loading. */
function HistorySkeleton() {
  return (
    <div role="status" className="flex flex-col gap-4">
      <span className="sr-only">Loading...</span>
      {[0, 1].map((n) => (
        <div key={n} className="flex flex-col gap-3 rounded-box border border-base-300 p-4" aria-hidden="true">
          <div className="skeleton h-6 w-56 max-w-full" />
          <div className="skeleton h-4 w-full" />
          <div className="skeleton h-4 w-2/3" />
        </div>
      ))}
    </div>
  );
}

function PaymentCard({ entry }: { entry: PaymentHistoryEntry }) {
  const titleId = useId();
  const status = paymentStatusLabel(entry);
  const money = (cents: number) => formatCents(cents, entry.currency);
  return (
    <article aria-labelledby={titleId} className="card border border-base-300 bg-base-100 shadow-sm">
      <div className="card-body gap-3 p-4 sm:p-5">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id={titleId} className="text-lg font-semibold">
            <time dateTime={entry.paidAt}>{formatPaymentDate(entry.paidAt)}</time>
          </h2>
          <p className="flex items-center gap-2">
            <span className={`badge ${status === 'Paid' ? 'badge-success' : 'badge-warning'}`}>{status}</span>
            <strong className="text-lg">{money(entry.totalCents)}</strong>
          </p>
        </div>
        <ul className="flex flex-col gap-1" aria-label="Classes paid">
          {entry.lines.map((line) => (
            <li key={line._id} className="flex flex-wrap justify-between gap-x-3">
              <span className="min-w-0 break-words">
                {line.title}
                {line.status !== 'paid' ? (
                  <>
                    {' '}
                    <span className="badge badge-outline badge-sm">{ENROLLMENT_STATUS[line.status].label}</span>
                  </>
                ) : null}
              </span>
              <span>{money(line.amountCents)}</span>
            </li>
          ))}
        </ul>
        {entry.coupon ? (
          <p className="text-sm">
            Coupon <strong>{entry.coupon.code}</strong>: −{money(entry.coupon.discountCents)}, included in the prices
            above
          </p>
        ) : null}
        {entry.refunds.length > 0 ? (
          <ul className="flex flex-col gap-1 text-sm" aria-label="Refunds">
            {entry.refunds.map((refund) => {
              const title = refundedTitle(entry, refund.enrollmentId);
              return (
                <li key={refund._id}>
                  {refund.status === 'pending' ? 'Refund in progress' : 'Refunded'} {money(refund.amountCents)}
                  {title ? ` for ${title}` : ''} on{' '}
                  <time dateTime={refund.completedAt ?? refund.createdAt}>
                    {formatPaymentDate(refund.completedAt ?? refund.createdAt)}
                  </time>
                </li>
              );
            })}
          </ul>
        ) : null}
        <div className="flex flex-wrap items-end justify-between gap-2 text-sm">
          <p className="min-w-0 break-all text-muted">
            Transaction id: <span className="font-mono">{entry.transactionId}</span>
          </p>
          <Link
            to={paths.dashboard.paymentReceipt(entry._id)}
            className="btn btn-outline btn-primary btn-sm"
            aria-describedby={titleId}
          >
            View receipt
          </Link>
        </div>
      </div>
    </article>
  );
}
