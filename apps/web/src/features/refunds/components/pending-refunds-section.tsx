import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { centsToDecimal, formatPrice } from '@skillhive/shared/rules/money';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { PENDING_REFUNDS_PAGE_SIZE, pendingRefundsQueryOptions } from '../api/refunds.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string) => <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time>;

/**
 * Refunds decided but not yet finished at the gateway (decision 031): nothing to do but know of
 * them, since the server completes each by itself; one that stays here for long is worth a look.
 */
export function PendingRefundsSection() {
  const headingId = useId();
  const user = useUserScope();
  const page = usePageParam('pendingPage');
  const query = useQuery(pendingRefundsQueryOptions(user, page));
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-xl font-bold">
          Refunds in progress
        </h2>
        <p className="text-muted">
          Decided, and not yet confirmed by the payment gateway. Each completes by itself; the server asks the gateway
          again at the time shown.
        </p>
      </div>
      <PagedQueryState query={query} what="refunds in progress" empty="No refund is in progress.">
        {(data) => (
          <>
            <DataTable
              label="Refunds in progress, oldest first"
              columns={['Decided', 'Student', 'Class', 'Amount', 'Transaction', 'By', 'Next check']}
            >
              {data.items.map((refund) => (
                <tr key={refund._id}>
                  <td className="whitespace-nowrap">{when(refund.createdAt)}</td>
                  <td className="whitespace-nowrap">{refund.email}</td>
                  <th scope="row" className="min-w-40 font-medium">
                    {refund.title ?? 'The whole payment'}
                  </th>
                  <td className="whitespace-nowrap">{formatPrice(centsToDecimal(refund.amountCents))}</td>
                  <td className="break-all">{refund.transactionId}</td>
                  <td className="whitespace-nowrap">{refund.refundedBy ?? 'The gateway'}</td>
                  <td className="whitespace-nowrap">{when(refund.nextCheckAt)}</td>
                </tr>
              ))}
            </DataTable>
            <PageControls
              page={page}
              total={data.total}
              limit={PENDING_REFUNDS_PAGE_SIZE}
              label="Refunds in progress pages"
              name="pendingPage"
            />
          </>
        )}
      </PagedQueryState>
    </section>
  );
}
