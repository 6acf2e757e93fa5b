// Temporary alias of the old specifier @skillhive/shared/users; removed by the specifier rename.
export {
  AdminFlagResponse,
  AuditEntry,
  NotificationPreferences,
  RoleSchema,
  SaveUserBody,
  SessionListItem,
  TeacherFlagResponse,
  UserListItem,
  UserListQuery,
  UserProfile,
} from '../contracts/users.ts';
export { DeleteOwnAccountBody } from '../rules/forms.ts';
export { roleOf } from '../rules/roles.ts';
