// Temporary alias of the old specifier @skillhive/shared/classes; removed by the specifier rename.
export {
  ClassFields,
  ClassItem,
  ClassListQuery,
  ClassModifiedResponse,
  ClassRevision,
  ClassRevisionResponse,
  ClassRevisionsQuery,
  ClassStats,
  RejectClassBody,
  RejectRevisionBody,
  TeacherClassesQuery,
} from '../contracts/classes.ts';
export { CLASS_REVISION_STATUSES, type ClassRevisionStatus } from '../rules/constants.ts';
export { CreateClassBody, ImageUrl, Price, UpdateClassBody } from '../rules/forms.ts';
export { CLASS_MESSAGES } from '../rules/messages.ts';
