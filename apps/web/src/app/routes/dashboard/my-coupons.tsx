import { CouponsPage } from '../../../features/payments/components/coupons-page.tsx';

/** A teacher's coupons for their own classes (issue 18 §4). */
export function Component() {
  return <CouponsPage owner="teacher" />;
}
