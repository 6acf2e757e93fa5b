import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AUTH_MESSAGES } from '@skillhive/shared/rules/messages';
import { ApiError } from '../../../lib/api-client.ts';
import { LoginForm, loginFailureMessage } from './login-form.tsx';

describe('LoginForm', () => {
  it('requires e-mail and password (spec §5)', async () => {
    const onSubmit = vi.fn();
    render(<LoginForm onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(AUTH_MESSAGES.emailRequired)).toBeTruthy();
    expect(screen.getByText(AUTH_MESSAGES.passwordRequired)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('says "Invalid email or password" on a failed login and keeps the form filled', async () => {
    const onSubmit = vi
      .fn()
      .mockRejectedValue(new ApiError({ status: 401, code: 'INVALID_EMAIL_OR_PASSWORD', message: 'nope' }));
    render(<LoginForm onSubmit={onSubmit} />);
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'student1@skillhive.test' } });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'wrong-Pass1!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect((await screen.findByRole('alert')).textContent).toBe(AUTH_MESSAGES.invalidCredentials);
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ email: 'student1@skillhive.test', password: 'wrong-Pass1!' }),
    );
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('student1@skillhive.test');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('wrong-Pass1!');
  });

  it('does not blame the credentials for rate limits or outages', () => {
    // The server's 429 says how long the lockout lasts; without a message, a general one.
    const lockout = 'Too many attempts. Please try again in 15 minutes.';
    expect(loginFailureMessage(new ApiError({ status: 429, code: 'rate_limited', message: lockout }))).toBe(lockout);
    expect(loginFailureMessage(new ApiError({ status: 429, code: 'rate_limited', message: '' }))).toMatch(
      /Too many attempts/,
    );
    expect(loginFailureMessage(new ApiError({ status: 503, code: 'unavailable', message: 'x' }))).toMatch(
      /not available/,
    );
    expect(loginFailureMessage(new Error('boom'))).toBe(AUTH_MESSAGES.invalidCredentials);
  });
});
