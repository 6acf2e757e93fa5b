import { CouponsPage } from '../../../features/payments/components/coupons-page.tsx';

/** The admin's site-wide coupons (decision 019). */
export function Component() {
  return <CouponsPage owner="site" />;
}
