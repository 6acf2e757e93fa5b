import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { feeRevenueQueryOptions } from '../api/earnings.ts';
import { formatCents, shortMonthName } from './earnings-format.tsx';

/** The platform's fee revenue per month (decision 039): what students paid, the fee, the teachers' shares. */
export function RevenueSection() {
  const headingId = useId();
  const user = useUserScope();
  const query = useQuery(feeRevenueQueryOptions(user));
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-bold">
        Platform fee revenue
      </h2>
      <QueryState query={query} what="fee revenue">
        {(months) =>
          months.length === 0 ? (
            <p className="rounded-box bg-base-200 p-6">No sales in the last 12 months.</p>
          ) : (
            <DataTable
              label="Platform fee revenue by month, newest first"
              columns={['Month', 'Paid by students', 'Platform fee', 'Teachers’ shares', 'Taken back']}
            >
              {[...months].reverse().map((month) => (
                <tr key={month.month}>
                  <th scope="row" className="font-medium whitespace-nowrap">
                    {shortMonthName(month.month)}
                    <span className="block text-sm font-normal text-muted">
                      {month.lines} {month.lines === 1 ? 'sale' : 'sales'}
                    </span>
                  </th>
                  <td className="whitespace-nowrap tabular-nums">{formatCents(month.grossCents)}</td>
                  <td className="whitespace-nowrap tabular-nums">{formatCents(month.feeCents)}</td>
                  <td className="whitespace-nowrap tabular-nums">{formatCents(month.sharesCents)}</td>
                  <td className="whitespace-nowrap tabular-nums">{formatCents(month.clawbacksCents)}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </section>
  );
}
