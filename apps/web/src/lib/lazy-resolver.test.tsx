import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { LoginBody } from '@skillhive/shared/rules/login-form';
import { AUTH_MESSAGES } from '@skillhive/shared/rules/messages';
import { FORM_CHECKS_UNAVAILABLE, lazyZodResolver } from './lazy-resolver.ts';

const values = (email: string, password: string) => ({ email, password });
const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('lazyZodResolver', () => {
  it('checks with the shared schema once it is downloaded: messages and parsed values', async () => {
    const resolver = lazyZodResolver(() =>
      import('@skillhive/shared/rules/login-form').then((rules) => rules.LoginBody),
    );

    const refused = await resolver(values('', ''), undefined, options);
    expect(refused.errors['email']?.message).toBe(AUTH_MESSAGES.emailRequired);
    expect(refused.errors['password']?.message).toBe(AUTH_MESSAGES.passwordRequired);

    const accepted = await resolver(values('  Ada@Example.COM ', 'secret'), undefined, options);
    expect(accepted.errors).toEqual({});
    expect(accepted.values).toEqual({ email: 'ada@example.com', password: 'secret' });
  });

  it('refuses the whole form when its checks cannot be downloaded, and downloads again next time', async () => {
    let attempts = 0;
    const resolver = lazyZodResolver(async () => {
      attempts += 1;
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return LoginBody;
    });

    const offline = await resolver(values('ada@example.com', 'secret'), undefined, options);
    expect(offline.values).toEqual({});
    expect(offline.errors.root?.message).toBe(FORM_CHECKS_UNAVAILABLE);

    const online = await resolver(values('ada@example.com', 'secret'), undefined, options);
    expect(online.errors).toEqual({});
    expect(attempts).toBe(2);
  });

  it('downloads once however often it is preloaded and run', async () => {
    let attempts = 0;
    const resolver = lazyZodResolver(async () => {
      attempts += 1;
      return LoginBody;
    });
    resolver.preload();
    resolver.preload();
    await resolver(values('ada@example.com', 'secret'), undefined, options);
    await resolver(values('', ''), undefined, options);
    expect(attempts).toBe(1);
  });

  it('gives react-hook-form the root error, which a form shows above its fields', async () => {
    const failing = lazyZodResolver<typeof LoginBody>(() => Promise.reject(new Error('offline')));
    function Form() {
      const {
        register,
        handleSubmit,
        formState: { errors, isSubmitting },
      } = useForm({ resolver: failing, defaultValues: { email: 'ada@example.com', password: 'x' } });
      return (
        <form noValidate onSubmit={handleSubmit(() => undefined)}>
          {errors.root ? <p role="alert">{errors.root.message}</p> : null}
          <input aria-label="Email" {...register('email')} />
          <button type="submit" disabled={isSubmitting}>
            Sign in
          </button>
        </form>
      );
    }
    render(<Form />);
    await act(async () => screen.getByRole('button', { name: 'Sign in' }).click());
    expect(screen.getByRole('alert').textContent).toBe(FORM_CHECKS_UNAVAILABLE);
    // The submission ended: the button is usable again.
    expect(screen.getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(false);
  });
});
