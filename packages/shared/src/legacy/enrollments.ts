// Temporary alias of the old specifier @skillhive/shared/enrollments; removed by the specifier rename.
export {
  ClassRosterEntry,
  ClassRosterQuery,
  CreateEnrollmentBody,
  CreateEnrollmentResponse,
  Enrollment,
  EnrollmentListQuery,
} from '../contracts/enrollments.ts';
export { DELETED_STUDENT_NAME } from '../rules/constants.ts';
export { ENROLLMENT_MESSAGES } from '../rules/messages.ts';
