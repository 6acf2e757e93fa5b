import type { ClassStatus } from '@skillhive/shared/rules/constants';
import { formatPrice } from '@skillhive/shared/rules/money';
import { BarChartCard } from '../../../components/ui/bar-chart-card.tsx';
import { formatCompactPrice, monthLabel } from '../../stats/api/stats.ts';

const STATUS_ORDER: readonly ClassStatus[] = ['pending', 'accepted', 'rejected', 'archived', 'hidden'];

export const CLASS_STATUS_LABELS: Record<ClassStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  archived: 'Archived',
  hidden: 'Hidden',
};

/** The admin's revenue or a teacher's earnings, month by month over the last 12 months. */
export function RevenueByMonthChart({
  byMonth,
  title = 'Revenue per month, last 12 months',
  valueLabel = 'Revenue',
}: {
  byMonth: readonly { month: string; revenue: number }[];
  title?: string;
  valueLabel?: string;
}) {
  return (
    <BarChartCard
      title={title}
      valueLabel={valueLabel}
      data={byMonth.map((m) => ({ label: monthLabel(m.month), value: m.revenue }))}
      formatValue={formatPrice}
      formatAxis={formatCompactPrice}
      emptyText="No payments in the last 12 months."
      colors={['#a14a07']}
    />
  );
}

/** How many classes are in each state: the platform's (admin) or one teacher's. */
export function ClassesByStatusChart({ counts }: { counts: Record<ClassStatus, number> }) {
  return (
    <BarChartCard
      title="Classes by status"
      valueLabel="Classes"
      data={STATUS_ORDER.map((status) => ({ label: CLASS_STATUS_LABELS[status], value: counts[status] }))}
    />
  );
}
