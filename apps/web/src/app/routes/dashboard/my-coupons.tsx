import { CouponsPage } from '../../../features/payments/components/coupons-page.tsx';

/** A teacher's coupons for their own classes (decision 019). */
export function Component() {
  return <CouponsPage owner="teacher" />;
}
