// Temporary alias of the old specifier @skillhive/shared/forms; removed by the specifier rename.
export {
  ChangeEmailBody,
  ChangePasswordBody,
  CreateClassBody,
  CreateTeacherRequestBody,
  Email,
  ImageUrl,
  LocalCallbackPath,
  LoginBody,
  Name,
  Password,
  Phone,
  PhotoUrl,
  Price,
  RequestPasswordResetBody,
  ResetPasswordBody,
  SendVerificationBody,
  SignUpBody,
  type SignUpInput,
  UpdateClassBody,
  UpdateUserBody,
} from '../rules/forms.ts';
export { AUTH_MESSAGES, CLASS_MESSAGES, TEACH_MESSAGES } from '../rules/messages.ts';
