export { UsersTable as Component } from '../../../features/users/components/users-table.tsx';
