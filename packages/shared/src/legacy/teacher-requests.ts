// Temporary alias of the old specifier @skillhive/shared/teacher-requests; removed by the specifier rename.
export {
  MyTeacherRequestResponse,
  RejectTeacherRequestBody,
  TeacherRequest,
  TeacherRequestListQuery,
} from '../contracts/teacher-requests.ts';
export { CreateTeacherRequestBody } from '../rules/forms.ts';
export { TEACH_MESSAGES } from '../rules/messages.ts';
