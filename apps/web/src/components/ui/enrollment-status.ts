import type { EnrollmentStatus } from '@skillhive/shared/rules/constants';

/**
 * How an enrollment's status reads and looks wherever it is shown (student home, My Enrolled
 * Classes, a teacher's roster, payment history). A new status fails the type check here.
 */
export const ENROLLMENT_STATUS: Record<EnrollmentStatus, { label: string; badge: string }> = {
  paid: { label: 'Paid', badge: 'badge-success' },
  pending: { label: 'Pending', badge: 'badge-warning' },
  // Refunded (DESIGN §4): no access any more; the class can be bought again from its page.
  refunded: { label: 'Refunded', badge: 'badge-ghost' },
};
