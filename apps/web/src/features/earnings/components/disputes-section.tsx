import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Dispute } from '@skillhive/shared/contracts/earnings';
import { DISPUTE_STATUSES, type DisputeStatus } from '@skillhive/shared/rules/earnings';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { DISPUTES_PAGE_SIZE, disputesQueryOptions } from '../api/earnings.ts';
import { DISPUTE_STATE, StateBadge, When, formatCents } from './earnings-format.tsx';

/** A dispute's evidence fields the gateway holds, the filled ones only ("product_description" → "Product description"). */
function filledEvidence(dispute: Dispute): [string, string][] {
  return Object.entries(dispute.evidence)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].length > 0)
    .map(([name, value]) => [name.charAt(0).toUpperCase() + name.slice(1).replaceAll('_', ' '), value]);
}

/**
 * Chargebacks (decision 040): open ones freeze their lines' shares until they close; a lost one
 * refunds those lines and takes the shares back, a won one releases them. Answered at the gateway
 * before its deadline.
 */
export function DisputesSection() {
  const headingId = useId();
  const filterId = useId();
  const user = useUserScope();
  const page = usePageParam('disputesPage');
  const [status, setStatus] = useState<DisputeStatus | 'all'>('all');
  const query = useQuery(disputesQueryOptions(user, status, page));
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={headingId} className="text-xl font-bold">
          Disputes
        </h2>
        <div className="flex flex-col gap-1">
          <label htmlFor={filterId} className="font-medium">
            Show
          </label>
          <select
            id={filterId}
            className="select select-sm"
            value={status}
            onChange={(event) => setStatus(event.target.value as DisputeStatus | 'all')}
          >
            <option value="all">All</option>
            {DISPUTE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {DISPUTE_STATE[s].label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <PagedQueryState query={query} what="disputes" empty="No disputes here.">
        {(data) => (
          <>
            <DataTable
              label="Disputes, newest first"
              columns={['Payment', 'Classes', 'Amount', 'Evidence due', 'Status']}
            >
              {data.items.map((dispute) => {
                const evidence = filledEvidence(dispute);
                return (
                  <tr key={dispute._id}>
                    <th scope="row" className="min-w-40 font-medium">
                      <span className="break-all">{dispute.transactionId}</span>
                      <span className="block text-sm font-normal text-muted">
                        opened <When iso={dispute.createdAt} /> · {dispute.reason}
                      </span>
                    </th>
                    <td className="min-w-32">
                      <ul>
                        {dispute.lines.map((line) => (
                          <li key={line.enrollmentId}>
                            {line.title} <span className="text-sm text-muted">({line.teacherName})</span>
                          </li>
                        ))}
                      </ul>
                      {evidence.length > 0 ? (
                        <details className="text-sm">
                          <summary className="cursor-pointer">Evidence ({evidence.length})</summary>
                          <dl>
                            {evidence.map(([name, value]) => (
                              <div key={name}>
                                <dt className="font-medium">{name}</dt>
                                <dd className="break-words">{value}</dd>
                              </div>
                            ))}
                          </dl>
                        </details>
                      ) : null}
                    </td>
                    <td className="whitespace-nowrap tabular-nums">
                      {formatCents(dispute.amountCents, dispute.currency)}
                    </td>
                    <td>{dispute.evidenceDueBy ? <When iso={dispute.evidenceDueBy} /> : '—'}</td>
                    <td>
                      <StateBadge {...DISPUTE_STATE[dispute.status]} />
                      {dispute.closedAt ? (
                        <span className="block text-sm whitespace-nowrap text-muted">
                          closed <When iso={dispute.closedAt} />
                        </span>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </DataTable>
            <PageControls
              page={page}
              total={data.total}
              limit={DISPUTES_PAGE_SIZE}
              label="Dispute pages"
              name="disputesPage"
            />
          </>
        )}
      </PagedQueryState>
    </section>
  );
}
