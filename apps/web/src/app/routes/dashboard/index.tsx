export { DashboardIndex as Component } from '../../../features/dashboard/components/dashboard-index.tsx';
