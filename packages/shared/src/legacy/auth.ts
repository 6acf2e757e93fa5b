// Temporary alias of the old specifier @skillhive/shared/auth; removed by the specifier rename.
export { AuthProvidersResponse, JwtBody, JwtResponse } from '../contracts/auth.ts';
export {
  ChangeEmailBody,
  ChangePasswordBody,
  Email,
  LocalCallbackPath,
  LoginBody,
  Name,
  Password,
  Phone,
  PhotoUrl,
  RequestPasswordResetBody,
  ResetPasswordBody,
  SendVerificationBody,
  SignUpBody,
  type SignUpInput,
  UpdateUserBody,
} from '../rules/forms.ts';
export { AUTH_MESSAGES } from '../rules/messages.ts';
