export { TeacherHome as Component } from '../../../features/dashboard/components/teacher-home.tsx';
