export { NotificationsPage as Component } from '../../../features/notifications/components/notifications-page.tsx';
