import { CouponsPage } from '../../../features/payments/components/coupons-page.tsx';

/** The admin's site-wide coupons (issue 18 §4). */
export function Component() {
  return <CouponsPage owner="site" />;
}
