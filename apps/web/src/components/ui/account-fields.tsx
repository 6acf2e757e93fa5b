import { TextField } from './form-field.tsx';

type PresetTextFieldProps = Omit<Parameters<typeof TextField>[0], 'label' | 'type'>;

/** An account's phone number (spec §5), the same field at sign-up and in the profile. */
export function PhoneField(props: PresetTextFieldProps) {
  return (
    <TextField
      label="Phone"
      type="tel"
      autoComplete="tel"
      placeholder="+880 1712 345678"
      hint="11 to 20 digits; spaces and dashes are fine."
      {...props}
    />
  );
}

/** An account's photo by its address (spec §5), the same field at sign-up and in the profile. */
export function PhotoUrlField(props: PresetTextFieldProps) {
  return (
    <TextField label="Photo URL" type="url" inputMode="url" autoComplete="photo" placeholder="https://…" {...props} />
  );
}
