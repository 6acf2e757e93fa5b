export { ProfilePage as Component } from '../../../features/users/components/profile-page.tsx';
