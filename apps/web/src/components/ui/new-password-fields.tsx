import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from './form-field.tsx';

type PasswordField = UseFormRegisterReturn & { error?: string | undefined };

interface NewPasswordFieldsProps {
  /** The password rule, shown under the new password until it has an error. */
  hint: ReactNode;
  /** `register('newPassword')` with its error message. */
  password: PasswordField;
  /** `register('confirmPassword')` with its error message. */
  confirmation: PasswordField;
  confirmLabel?: string;
}

/** A new password typed twice, both fields marked for password managers as a new password. */
export function NewPasswordFields({
  hint,
  password,
  confirmation,
  confirmLabel = 'Confirm password',
}: NewPasswordFieldsProps) {
  return (
    <>
      <TextField label="New password" type="password" autoComplete="new-password" hint={hint} {...password} />
      <TextField label={confirmLabel} type="password" autoComplete="new-password" {...confirmation} />
    </>
  );
}
