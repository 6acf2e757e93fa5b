import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { PaymentReceipt as Receipt } from '@skillhive/shared/contracts/payments';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { receiptQueryOptions } from '../api/payment-history.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';
import {
  formatCents,
  formatPaymentDate,
  paymentMethodLabel,
  paymentStatusLabel,
  refundedTitle,
} from './payment-format.ts';
import './receipt-print.css';
import { ENROLLMENT_STATUS } from '../../../components/ui/enrollment-status.ts';

/** paymentHistory/:id: one payment as a printable receipt. */
export function PaymentReceiptPage({ paymentId }: { paymentId: string }) {
  const { user } = useAuth();
  const query = useQuery(receiptQueryOptions(user, paymentId));

  return (
    <div className="flex flex-col gap-4">
      <title>Receipt — SkillHive</title>
      <div className="flex flex-wrap items-center justify-between gap-2 print:hidden">
        <Link to={paths.dashboard.paymentHistory} className="link link-primary">
          ← Payment history
        </Link>
        {query.data ? (
          <button type="button" className="btn btn-primary btn-sm" onClick={() => window.print()}>
            Print
          </button>
        ) : null}
      </div>
      {query.isPending ? (
        <LoadingState label="Loading receipt..." />
      ) : query.isError ? (
        <FetchError what="the receipt" error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <ReceiptDocument receipt={query.data} />
      )}
    </div>
  );
}

/** What is printed: seller, buyer, date, method, transaction id, the classes and the totals. */
export function ReceiptDocument({ receipt }: { receipt: Receipt }) {
  const titleId = useId();
  const money = (cents: number) => formatCents(cents, receipt.currency);
  const netCents = receipt.totalCents - receipt.refundedCents;
  return (
    <article
      data-receipt
      aria-labelledby={titleId}
      className="mx-auto flex w-full max-w-2xl flex-col gap-5 rounded-box border border-base-300 bg-base-100 p-4 sm:p-8"
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id={titleId} className="text-2xl font-bold">
            Receipt
          </h1>
          <p className="text-lg font-semibold">{receipt.seller.name}</p>
        </div>
        <p className="text-right">
          <time dateTime={receipt.paidAt}>{formatPaymentDate(receipt.paidAt)}</time>
        </p>
      </header>

      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="font-semibold">Billed to</dt>
        <dd>
          {receipt.buyer.name}
          <br />
          <span className="break-all">{receipt.buyer.email}</span>
        </dd>
        <dt className="font-semibold">Payment method</dt>
        <dd>{paymentMethodLabel(receipt.method)}</dd>
        <dt className="font-semibold">Transaction id</dt>
        <dd className="font-mono break-all">{receipt.transactionId}</dd>
        <dt className="font-semibold">Status</dt>
        <dd>{paymentStatusLabel(receipt)}</dd>
      </dl>

      <div className="overflow-x-auto">
        <table className="table">
          <caption className="sr-only">Classes paid</caption>
          <thead>
            <tr>
              <th scope="col">Class</th>
              <th scope="col" className="text-right">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {receipt.lines.map((line) => (
              <tr key={line._id}>
                <td className="break-words">
                  {line.title}
                  {line.status !== 'paid' ? (
                    <span className="text-sm"> ({ENROLLMENT_STATUS[line.status].label})</span>
                  ) : null}
                </td>
                <td className="text-right whitespace-nowrap">
                  {/* With a coupon each class at its price, the coupon's discount below (decision 019). */}
                  {money(receipt.coupon ? line.listCents : line.amountCents)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {receipt.coupon ? (
              <tr>
                <th scope="row">Coupon {receipt.coupon.code}</th>
                <td className="text-right whitespace-nowrap">−{money(receipt.coupon.discountCents)}</td>
              </tr>
            ) : null}
            <tr>
              <th scope="row">Total paid</th>
              <td className="text-right font-bold whitespace-nowrap" data-testid="receipt-total">
                {money(receipt.totalCents)}
              </td>
            </tr>
            {receipt.refundedCents > 0 ? (
              <>
                <tr>
                  <th scope="row">Refunded</th>
                  <td className="text-right whitespace-nowrap">−{money(receipt.refundedCents)}</td>
                </tr>
                <tr>
                  <th scope="row">Net paid</th>
                  <td className="text-right font-bold whitespace-nowrap">{money(netCents)}</td>
                </tr>
              </>
            ) : null}
          </tfoot>
        </table>
      </div>

      {receipt.refunds.length > 0 ? (
        <section aria-labelledby={`${titleId}-refunds`} className="flex flex-col gap-2">
          <h2 id={`${titleId}-refunds`} className="text-lg font-semibold">
            Refunds
          </h2>
          <ul className="flex flex-col gap-1">
            {receipt.refunds.map((refund) => {
              const title = refundedTitle(receipt, refund.enrollmentId);
              const when = refund.completedAt ?? refund.createdAt;
              return (
                <li key={refund._id}>
                  <time dateTime={when}>{formatPaymentDate(when)}</time>: {money(refund.amountCents)}
                  {title ? ` for ${title}` : ''}
                  {refund.status === 'pending' ? ' (in progress)' : ''} — {refund.reason}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      <p className="text-sm">Thank you for learning with {receipt.seller.name}.</p>
    </article>
  );
}
