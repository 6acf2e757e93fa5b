export { PayoutsPage as Component } from '../../../features/earnings/components/payouts-page.tsx';
