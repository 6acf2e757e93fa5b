export { TeacherRequestsTable as Component } from '../../../features/admin/components/teacher-requests-table.tsx';
