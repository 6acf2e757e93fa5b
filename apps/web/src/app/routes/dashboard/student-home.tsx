export { StudentHome as Component } from '../../../features/dashboard/components/student-home.tsx';
