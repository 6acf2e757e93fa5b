import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AUTH_MESSAGES } from '@skillhive/shared/rules/messages';
import { ApiError } from '../../../lib/api-client.ts';
import { PASSWORDS_DO_NOT_MATCH } from '../password-confirmation.ts';
import { RESET_MESSAGES, ResetPasswordForm } from './reset-password-form.tsx';

function renderForm(props: Partial<Parameters<typeof ResetPasswordForm>[0]> = {}) {
  const onSubmit = props.onSubmit ?? vi.fn().mockResolvedValue(undefined);
  render(
    <MemoryRouter>
      <ResetPasswordForm token="tok-123" linkError={null} {...props} onSubmit={onSubmit} />
    </MemoryRouter>,
  );
  return onSubmit;
}

function fill(newPassword: string, confirmPassword: string) {
  fireEvent.input(screen.getByLabelText('New password'), { target: { value: newPassword } });
  fireEvent.input(screen.getByLabelText('Confirm password'), { target: { value: confirmPassword } });
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('ResetPasswordForm', () => {
  it('says the passwords do not match, and sends nothing', async () => {
    const onSubmit = renderForm();
    fill('New!Pass1', 'New!Pass2');
    expect(await screen.findByText(PASSWORDS_DO_NOT_MATCH)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('applies the spec §5 password rule with its message', async () => {
    const onSubmit = renderForm();
    fill('lowercase1!', 'lowercase1!');
    expect(await screen.findByText(AUTH_MESSAGES.passwordPattern)).toBeTruthy();
    expect(screen.queryByText(PASSWORDS_DO_NOT_MATCH)).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the token and the new password, then says every device was signed out', async () => {
    const onSubmit = renderForm();
    fill('New!Pass1', 'New!Pass1');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ token: 'tok-123', newPassword: 'New!Pass1' }));
    expect((await screen.findByRole('status')).textContent).toContain(RESET_MESSAGES.done);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });

  it('shows the invalid-link state at once without a token or with ?error=', () => {
    renderForm({ token: null });
    expect(screen.getByRole('alert').textContent).toContain(RESET_MESSAGES.invalidLink);
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('shows the invalid-link state when the link came back refused', () => {
    renderForm({ linkError: 'INVALID_TOKEN' });
    expect(screen.getByRole('alert').textContent).toContain(RESET_MESSAGES.invalidLink);
  });

  it('turns into the invalid-link state when the server refuses the token', async () => {
    const onSubmit = vi
      .fn()
      .mockRejectedValue(
        new ApiError({ status: 400, code: 'validation_error', message: 'Invalid token', authCode: 'INVALID_TOKEN' }),
      );
    renderForm({ onSubmit });
    fill('New!Pass1', 'New!Pass1');
    expect((await screen.findByRole('alert')).textContent).toContain(RESET_MESSAGES.invalidLink);
    // The message takes the focus in an effect after it is drawn.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('alert')));
  });
});
