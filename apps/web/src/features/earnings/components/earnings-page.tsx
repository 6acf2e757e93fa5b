import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { EarningsSummary } from '@skillhive/shared/contracts/earnings';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { PagedQueryState, QueryState } from '../../../components/ui/query-state.tsx';
import { StatCard, StatGrid } from '../../../components/ui/stat-card.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import {
  EARNING_LINES_PAGE_SIZE,
  PAYOUTS_PAGE_SIZE,
  downloadStatement,
  earningLinesQueryOptions,
  earningsSummaryQueryOptions,
  teacherPayoutsQueryOptions,
  useStartConnect,
} from '../api/earnings.ts';
import {
  CONNECT_STATE,
  LINE_STATE,
  PAYOUT_STATE,
  StateBadge,
  When,
  formatCents,
  monthName,
  recentMonths,
} from './earnings-format.tsx';

/**
 * The teacher's Earnings page (decisions 039, 040): balances from the ledger, the payout account,
 * each paid line (the student by initials only), payouts, and a CSV statement per month.
 */
export function EarningsPage() {
  const user = useUserScope();
  const summary = useQuery(earningsSummaryQueryOptions(user));
  return (
    <div className="flex flex-col gap-8">
      <title>Earnings — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Earnings</h1>
        <p className="text-muted">
          What your classes earned after the platform fee, what is on its way to you, and what was paid.
        </p>
      </div>
      <QueryState query={summary} what="your earnings">
        {(data) => (
          <>
            <Balances summary={data} />
            <PayoutAccount summary={data} />
          </>
        )}
      </QueryState>
      <LinesSection />
      <PayoutsSection />
      <StatementSection />
    </div>
  );
}

function Balances({ summary }: { summary: EarningsSummary }) {
  const money = (cents: number) => formatCents(cents, summary.currency);
  const schedule = summary.payoutSchedule === 'daily' ? 'Daily' : 'Weekly';
  return (
    <section aria-label="Balance" className="flex flex-col gap-3">
      <StatGrid>
        <StatCard label="Pending" value={money(summary.pendingCents)} hint="Until the refund window closes" />
        <StatCard
          label="Available"
          value={money(Math.max(0, summary.availableCents))}
          hint={`Paid out at the next payout from ${money(summary.minimumPayoutCents)}`}
        />
        <StatCard label="Paid out" value={money(summary.paidCents)} hint="All time" />
        <StatCard
          label="Next payout"
          value={summary.nextPayoutAt ? <When iso={summary.nextPayoutAt} /> : 'Not scheduled'}
          hint={`${schedule} payouts · your fee ${summary.feePercent}%`}
        />
      </StatGrid>
      {summary.negativeBalanceCents > 0 ? (
        <p role="status" className="rounded-box border border-warning bg-base-100 p-4">
          <strong>Negative balance: −{money(summary.negativeBalanceCents)}.</strong> A refund or a lost dispute took
          back money already paid to you; your next payouts recover it first.
        </p>
      ) : null}
      {summary.frozenCents > 0 ? (
        <p className="rounded-box bg-base-200 p-4">
          {money(summary.frozenCents)} is held while a student’s bank disputes a payment; it moves again when the
          dispute closes.
        </p>
      ) : null}
    </section>
  );
}

function PayoutAccount({ summary }: { summary: EarningsSummary }) {
  const headingId = useId();
  const start = useStartConnect();
  const { connect } = summary;
  const connectNow = () =>
    start.mutate(undefined, {
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (error) => notify.error(errorMessage(error)),
    });
  const state = CONNECT_STATE[connect.status];
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-box border border-base-300 p-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id={headingId} className="text-xl font-bold">
          Payout account
        </h2>
        {connect.available ? <StateBadge {...state} /> : null}
      </div>
      {!connect.available ? (
        <p>Payouts are made by bank transfer: an administrator sends what is available to you and marks it paid.</p>
      ) : connect.status === 'enabled' ? (
        <p>Your account is connected: payouts are sent to it automatically.</p>
      ) : (
        <>
          <p>
            {connect.status === 'none'
              ? 'Connect a payout account to be paid. You will finish the setup on our payment provider’s page.'
              : connect.status === 'pending'
                ? 'Your payout account is not ready yet: finish the setup on our payment provider’s page.'
                : 'Our payment provider has paused payouts to your account: update your details there.'}
          </p>
          <div>
            <BusyButton className="btn-primary whitespace-nowrap" busy={start.isPending} onClick={connectNow}>
              {connect.status === 'none' ? 'Connect payout account' : 'Continue setup'}
            </BusyButton>
          </div>
        </>
      )}
    </section>
  );
}

function LinesSection() {
  const headingId = useId();
  const user = useUserScope();
  const page = usePageParam('linesPage');
  const query = useQuery(earningLinesQueryOptions(user, page));
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-bold">
        Sales
      </h2>
      <PagedQueryState query={query} what="your sales" empty="No paid classes yet.">
        {(data) => (
          <>
            <DataTable
              label="Sales, newest first"
              columns={['Class', 'Student', 'Gross', 'Fee', 'Your share', 'State']}
            >
              {data.items.map((line) => (
                <tr key={line._id}>
                  <th scope="row" className="min-w-32 font-medium">
                    {line.title}
                    <span className="block text-sm font-normal text-muted">
                      paid <When iso={line.paidAt} />
                    </span>
                  </th>
                  <td className="whitespace-nowrap">{line.studentInitials}</td>
                  <td className="tabular-nums">
                    <span className="whitespace-nowrap">{formatCents(line.grossCents, line.currency)}</span>
                    {line.discountCents > 0 ? (
                      <span className="block text-sm text-muted">
                        {line.couponSource === 'teacher' ? 'your coupon' : 'site coupon'}{' '}
                        <span className="whitespace-nowrap">−{formatCents(line.discountCents, line.currency)}</span>
                      </span>
                    ) : null}
                  </td>
                  <td className="tabular-nums">
                    <span className="whitespace-nowrap">{formatCents(line.feeCents, line.currency)}</span>
                    <span className="block text-sm text-muted">{line.feePercent}%</span>
                  </td>
                  <td className="tabular-nums">
                    <span className="whitespace-nowrap">{formatCents(line.shareCents, line.currency)}</span>
                    {line.clawbackCents > 0 ? (
                      <span className="block text-sm text-muted">
                        <span className="whitespace-nowrap">−{formatCents(line.clawbackCents, line.currency)}</span>{' '}
                        taken back
                      </span>
                    ) : null}
                  </td>
                  <td>
                    <StateBadge {...LINE_STATE[line.state]} />
                    {line.state === 'pending' && line.releaseAt ? (
                      <span className="block text-sm text-muted">
                        until <When iso={line.releaseAt} />
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </DataTable>
            <PageControls
              page={page}
              total={data.total}
              limit={EARNING_LINES_PAGE_SIZE}
              label="Sales pages"
              name="linesPage"
            />
          </>
        )}
      </PagedQueryState>
    </section>
  );
}

function PayoutsSection() {
  const headingId = useId();
  const user = useUserScope();
  const page = usePageParam('payoutsPage');
  const query = useQuery(teacherPayoutsQueryOptions(user, page));
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-bold">
        Payouts
      </h2>
      <PagedQueryState query={query} what="your payouts" empty="No payouts yet.">
        {(data) => (
          <>
            <DataTable label="Payouts, newest first" columns={['Date', 'Amount', 'How', 'Status']}>
              {data.items.map((payout) => (
                <tr key={payout._id}>
                  <td>
                    <When iso={payout.paidAt ?? payout.createdAt} />
                  </td>
                  <td className="whitespace-nowrap tabular-nums">
                    {formatCents(payout.amountCents, payout.currency)}
                    {payout.recoveredCents > 0 ? (
                      <span className="block text-sm text-muted">
                        after recovering {formatCents(payout.recoveredCents, payout.currency)}
                      </span>
                    ) : null}
                  </td>
                  <td className="whitespace-nowrap">
                    {payout.method === 'gateway' ? 'Payout account' : 'Bank transfer'}
                  </td>
                  <td>
                    <StateBadge {...PAYOUT_STATE[payout.status]} />
                    {payout.status === 'failed' && payout.failureReason ? (
                      <span className="block text-sm text-muted">{payout.failureReason}</span>
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
    </section>
  );
}

function StatementSection() {
  const headingId = useId();
  const monthId = useId();
  const [months] = useState(() => recentMonths(new Date()));
  const [month, setMonth] = useState(months[0]!);
  const [busy, setBusy] = useState(false);
  const download = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    try {
      await downloadStatement(month);
    } catch (error) {
      notify.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-bold">
        Monthly statement
      </h2>
      <form className="flex flex-wrap items-end gap-2" onSubmit={(event) => void download(event)}>
        <div className="flex flex-col gap-1">
          <label htmlFor={monthId} className="font-medium">
            Month
          </label>
          <select id={monthId} className="select" value={month} onChange={(event) => setMonth(event.target.value)}>
            {months.map((m) => (
              <option key={m} value={m}>
                {monthName(m)}
              </option>
            ))}
          </select>
        </div>
        <BusyButton type="submit" className="btn-outline whitespace-nowrap" busy={busy}>
          Download CSV
        </BusyButton>
      </form>
    </section>
  );
}
