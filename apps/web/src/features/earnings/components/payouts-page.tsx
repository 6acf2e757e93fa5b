import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AdminPayout } from '@skillhive/shared/contracts/earnings';
import { PAYOUT_FILTERS, type PayoutFilter } from '@skillhive/shared/rules/earnings';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { PagedQueryState, QueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import {
  PAYOUTS_PAGE_SIZE,
  adminPayoutsQueryOptions,
  upcomingPayoutsQueryOptions,
  useRetryPayout,
  useRunPayouts,
} from '../api/earnings.ts';
import { DisputesSection } from './disputes-section.tsx';
import { CONNECT_STATE, PAYOUT_STATE, StateBadge, When, formatCents } from './earnings-format.tsx';
import { FeeRateSection } from './fee-rate-section.tsx';
import { PayoutBatchesSection } from './payout-batches-section.tsx';
import { RevenueSection } from './revenue-section.tsx';

const FILTER_LABEL: Record<PayoutFilter, string> = {
  past: 'Past',
  failed: 'Failed',
  in_flight: 'Sending',
  manual: 'Bank transfer due',
};

/**
 * The admin's Payouts page (decision 040): what the next run pays, payouts made (failed ones
 * retried after a confirmation), manual batches for bank transfers, the platform's fee revenue,
 * disputes, and a teacher's own fee rate.
 */
export function PayoutsPage() {
  return (
    <div className="flex flex-col gap-8">
      <title>Payouts — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Payouts</h1>
        <p className="text-muted">
          Teachers’ balances paid out, the platform’s fee revenue, and payments disputed by students’ banks.
        </p>
      </div>
      <UpcomingSection />
      <PayoutListSection />
      <PayoutBatchesSection />
      <RevenueSection />
      <DisputesSection />
      <FeeRateSection />
    </div>
  );
}

function UpcomingSection() {
  const headingId = useId();
  const user = useUserScope();
  const query = useQuery(upcomingPayoutsQueryOptions(user));
  const run = useRunPayouts();
  const [confirm, dialog] = useConfirm();

  const runNow = async () => {
    const answer = await confirm({
      title: 'Run payouts now?',
      text: 'Every teacher whose available balance reaches the minimum is paid now, as the scheduled run would.',
      confirmButtonText: 'Run payouts',
    });
    if (answer !== 'confirmed') return;
    run.mutate(undefined, {
      onSuccess: (result) =>
        notify.success(
          `Payouts run: ${result.paid} sent, ${result.manual} for bank transfer, ${result.failed} failed (${formatCents(result.totalCents)}).`,
        ),
      onError: (error) => notify.error(errorMessage(error)),
    });
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={headingId} className="text-xl font-bold">
          Upcoming payouts
        </h2>
        <BusyButton className="btn-sm btn-primary whitespace-nowrap" busy={run.isPending} onClick={() => void runNow()}>
          Run payouts now
        </BusyButton>
      </div>
      <QueryState query={query} what="upcoming payouts">
        {(data) => (
          <>
            <p className="text-muted">
              {data.nextPayoutAt ? (
                <>
                  Next run <When iso={data.nextPayoutAt} withTime /> ({data.payoutSchedule}
                </>
              ) : (
                <>No run scheduled ({data.payoutSchedule}</>
              )}
              , minimum {formatCents(data.minimumPayoutCents)}).
            </p>
            {data.payouts.length === 0 ? (
              <p className="rounded-box bg-base-200 p-6">No teacher has a balance to pay out.</p>
            ) : (
              <DataTable
                label="Upcoming payouts by teacher"
                columns={['Teacher', 'Available', 'Next run pays', 'How', 'Payout account']}
              >
                {data.payouts.map((item) => (
                  <tr key={item.teacher._id}>
                    <th scope="row" className="min-w-40 font-medium">
                      {item.teacher.name}
                      <span className="block text-sm font-normal break-all text-muted">{item.teacher.email}</span>
                    </th>
                    <td className="whitespace-nowrap tabular-nums">{formatCents(item.availableCents)}</td>
                    <td className="whitespace-nowrap tabular-nums">{formatCents(item.payableCents)}</td>
                    <td className="whitespace-nowrap">{item.method === 'gateway' ? 'Gateway' : 'Bank transfer'}</td>
                    <td>
                      <StateBadge {...CONNECT_STATE[item.connectStatus]} />
                    </td>
                  </tr>
                ))}
              </DataTable>
            )}
          </>
        )}
      </QueryState>
      {dialog}
    </section>
  );
}

function PayoutListSection() {
  const headingId = useId();
  const filterId = useId();
  const user = useUserScope();
  const page = usePageParam('payoutsPage');
  const [status, setStatus] = useState<PayoutFilter>('past');
  const query = useQuery(adminPayoutsQueryOptions(user, status, page));
  const retry = useRetryPayout();
  const [confirm, dialog] = useConfirm();

  const retryPayout = async (payout: AdminPayout) => {
    const answer = await confirm({
      title: `Retry the payout of ${formatCents(payout.amountCents, payout.currency)} to ${payout.teacher.name}?`,
      text: 'The payment gateway is asked again to send this payout.',
      confirmButtonText: 'Retry payout',
    });
    if (answer !== 'confirmed') return;
    retry.mutate(payout._id, {
      onSuccess: (after) =>
        notify.success(
          after.status === 'failed'
            ? `The payout failed again: ${after.failureReason ?? 'no reason given'}.`
            : `The payout to ${payout.teacher.name} was sent again.`,
        ),
      onError: (error) => notify.error(errorMessage(error)),
    });
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={headingId} className="text-xl font-bold">
          Payouts made
        </h2>
        <div className="flex flex-col gap-1">
          <label htmlFor={filterId} className="font-medium">
            Show
          </label>
          <select
            id={filterId}
            className="select select-sm"
            value={status}
            onChange={(event) => setStatus(event.target.value as PayoutFilter)}
          >
            {PAYOUT_FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {FILTER_LABEL[filter]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <PagedQueryState query={query} what="payouts" empty="No payouts here.">
        {(data) => (
          <>
            <DataTable label="Payouts, newest first" columns={['Date', 'Teacher', 'Amount', 'Status', 'Action']}>
              {data.items.map((payout) => (
                <tr key={payout._id}>
                  <td>
                    <When iso={payout.paidAt ?? payout.createdAt} />
                  </td>
                  <th scope="row" className="min-w-40 font-medium">
                    {payout.teacher.name}
                    <span className="block text-sm font-normal break-all text-muted">{payout.teacher.email}</span>
                  </th>
                  <td className="whitespace-nowrap tabular-nums">
                    {formatCents(payout.amountCents, payout.currency)}
                    {payout.recoveredCents > 0 ? (
                      <span className="block text-sm text-muted">
                        recovered {formatCents(payout.recoveredCents, payout.currency)}
                      </span>
                    ) : null}
                  </td>
                  <td>
                    <StateBadge {...PAYOUT_STATE[payout.status]} />
                    {payout.failureReason ? (
                      <span className="block text-sm text-muted">{payout.failureReason}</span>
                    ) : null}
                  </td>
                  <td>
                    {payout.status === 'failed' ? (
                      <BusyButton
                        className="btn-sm btn-outline whitespace-nowrap"
                        busy={retry.isPending && retry.variables === payout._id}
                        aria-label={`Retry the payout to ${payout.teacher.name}`}
                        onClick={() => void retryPayout(payout)}
                      >
                        Retry
                      </BusyButton>
                    ) : null}
                  </td>
                </tr>
              ))}
            </DataTable>
            <PageControls
              page={page}
              total={data.total}
              limit={PAYOUTS_PAGE_SIZE}
              label="Payout pages"
              name="payoutsPage"
            />
          </>
        )}
      </PagedQueryState>
      {dialog}
    </section>
  );
}
