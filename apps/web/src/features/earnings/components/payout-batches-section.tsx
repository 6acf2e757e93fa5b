import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PayoutBatch } from '@skillhive/shared/contracts/earnings';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import {
  PAYOUTS_PAGE_SIZE,
  downloadBatchCsv,
  payoutBatchesQueryOptions,
  useCreatePayoutBatch,
  useMarkBatchPaid,
} from '../api/earnings.ts';
import { StateBadge, When, formatCents } from './earnings-format.tsx';

/**
 * Manual payouts (decision 040): teachers without a connected account are paid by bank transfer.
 * The admin gathers what is due into a batch, downloads it as CSV for the bank, and marks it paid
 * once the transfers are made (asked first: it moves the teachers' balances to paid).
 */
export function PayoutBatchesSection() {
  const headingId = useId();
  const user = useUserScope();
  const page = usePageParam('batchesPage');
  const query = useQuery(payoutBatchesQueryOptions(user, page));
  const create = useCreatePayoutBatch();
  const markPaid = useMarkBatchPaid();
  const [downloading, setDownloading] = useState<string | null>(null);
  const [confirm, dialog] = useConfirm();

  const createBatch = () =>
    create.mutate(undefined, {
      onSuccess: (batch) =>
        notify.success(`Batch of ${batch.count} bank transfers (${formatCents(batch.totalCents, batch.currency)}).`),
      onError: (error) => notify.error(errorMessage(error)),
    });
  const download = async (batch: PayoutBatch) => {
    setDownloading(batch._id);
    try {
      await downloadBatchCsv(batch._id);
    } catch (error) {
      notify.error(errorMessage(error));
    } finally {
      setDownloading(null);
    }
  };
  const markBatchPaid = async (batch: PayoutBatch) => {
    const answer = await confirm({
      title: `Mark ${batch.count} bank transfers (${formatCents(batch.totalCents, batch.currency)}) as paid?`,
      text: 'Only once the bank has sent them: the teachers see these payouts as paid.',
      confirmButtonText: 'Mark paid',
    });
    if (answer !== 'confirmed') return;
    markPaid.mutate(batch._id, {
      onSuccess: () => notify.success('The batch is marked paid.'),
      onError: (error) => notify.error(errorMessage(error)),
    });
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={headingId} className="text-xl font-bold">
          Bank transfer batches
        </h2>
        <BusyButton className="btn-sm btn-outline whitespace-nowrap" busy={create.isPending} onClick={createBatch}>
          New batch
        </BusyButton>
      </div>
      <PagedQueryState query={query} what="payout batches" empty="No batches yet.">
        {(data) => (
          <>
            <DataTable
              label="Bank transfer batches, newest first"
              columns={['Created', 'Transfers', 'Total', 'Status', 'Actions']}
            >
              {data.items.map((batch) => (
                <tr key={batch._id}>
                  <th scope="row" className="font-medium">
                    <When iso={batch.createdAt} withTime />
                  </th>
                  <td className="tabular-nums">{batch.count}</td>
                  <td className="whitespace-nowrap tabular-nums">{formatCents(batch.totalCents, batch.currency)}</td>
                  <td>
                    {batch.status === 'paid' ? (
                      <>
                        <StateBadge label="Paid" tone="badge-success" />
                        {batch.paidAt ? (
                          <span className="block text-sm text-muted">
                            <When iso={batch.paidAt} />
                          </span>
                        ) : null}
                      </>
                    ) : (
                      <StateBadge label="To send" tone="badge-warning" />
                    )}
                  </td>
                  <td>
                    <div className="flex flex-wrap gap-2">
                      <BusyButton
                        className="btn-sm btn-outline whitespace-nowrap"
                        busy={downloading === batch._id}
                        aria-label={`Download the batch of ${formatCents(batch.totalCents, batch.currency)} as CSV`}
                        onClick={() => void download(batch)}
                      >
                        Download CSV
                      </BusyButton>
                      {batch.status === 'open' ? (
                        <BusyButton
                          className="btn-sm btn-primary whitespace-nowrap"
                          busy={markPaid.isPending && markPaid.variables === batch._id}
                          aria-label={`Mark the batch of ${formatCents(batch.totalCents, batch.currency)} paid`}
                          onClick={() => void markBatchPaid(batch)}
                        >
                          Mark paid
                        </BusyButton>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </DataTable>
            <PageControls
              page={page}
              total={data.total}
              limit={PAYOUTS_PAGE_SIZE}
              label="Batch pages"
              name="batchesPage"
            />
          </>
        )}
      </PagedQueryState>
      {dialog}
    </section>
  );
}
