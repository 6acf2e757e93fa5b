export { AdminHome as Component } from '../../../features/dashboard/components/admin-home.tsx';
