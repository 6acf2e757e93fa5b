import { useForm } from 'react-hook-form';
import type { SignUpBody, SignUpInput } from '@skillhive/shared/rules/auth-forms';
import { TextField } from '../../../components/ui/form-field.tsx';
import { PhoneField, PhotoUrlField } from '../../../components/ui/account-fields.tsx';
import { preloadAuthClient } from '../../../lib/load-auth-client.ts';
import { PASSWORD_RULE_HINT } from '../password-confirmation.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { useSubmitError } from '../../../lib/form-errors.ts';
import { Form } from '../../../components/ui/form-message.tsx';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';

const FIELDS = ['name', 'image', 'phone', 'email', 'password'] as const;

const signUpResolver = lazyZodResolver(() =>
  import('@skillhive/shared/rules/auth-forms').then((rules) => rules.SignUpBody),
);

function preloadChecksAndClient() {
  signUpResolver.preload();
  preloadAuthClient();
}

interface SignUpFormProps {
  onSubmit: (values: SignUpBody) => Promise<void>;
}

/** spec §5 sign-up: the shared schema's messages, written once (STYLE.md). */
export function SignUpForm({ onSubmit }: SignUpFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignUpInput, unknown, SignUpBody>({
    resolver: signUpResolver,
    defaultValues: { name: '', image: '', phone: '', email: '', password: '' },
  });

  const { formError, attempt } = useSubmitError(setError, FIELDS, 'Sign-up failed. Please try again.');
  const submit = handleSubmit((values) => attempt(() => onSubmit(values)));

  const alert = formError ?? errors.root?.message;

  return (
    <Form label="Sign up" onSubmit={submit} onFocus={preloadChecksAndClient} alert={alert}>
      <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <PhotoUrlField error={errors.image?.message} {...register('image')} />
      <PhoneField error={errors.phone?.message} {...register('phone')} />
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_RULE_HINT}
        error={errors.password?.message}
        {...register('password')}
      />
      <BusyButton type="submit" className="btn-primary mt-2" busy={isSubmitting}>
        Sign Up
      </BusyButton>
    </Form>
  );
}
