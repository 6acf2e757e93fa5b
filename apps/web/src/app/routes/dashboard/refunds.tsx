export { RefundsPage as Component } from '../../../features/refunds/components/refunds-page.tsx';
