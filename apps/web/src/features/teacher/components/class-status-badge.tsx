import type { ClassStatus } from '@skillhive/shared/rules/constants';

const STYLES: Record<ClassStatus, string> = {
  pending: 'badge-warning',
  accepted: 'badge-success',
  rejected: 'badge-error',
  archived: 'badge-neutral',
  hidden: 'badge-error',
};

const LABELS: Record<ClassStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  archived: 'Archived',
  hidden: 'Hidden',
};

export function ClassStatusBadge({ status }: { status: ClassStatus }) {
  return <span className={`badge ${STYLES[status]}`}>{LABELS[status]}</span>;
}
