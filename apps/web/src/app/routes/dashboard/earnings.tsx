export { EarningsPage as Component } from '../../../features/earnings/components/earnings-page.tsx';
