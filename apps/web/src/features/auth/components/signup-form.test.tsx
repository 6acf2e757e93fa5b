import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AUTH_MESSAGES } from '@skillhive/shared/rules/messages';
import { ApiError } from '../../../lib/api-client.ts';
import { SignUpForm } from './signup-form.tsx';

function fill(label: string, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

describe('SignUpForm', () => {
  it('labels every field visibly', () => {
    render(<SignUpForm onSubmit={vi.fn()} />);
    for (const label of ['Name', 'Photo URL', 'Phone', 'Email', 'Password']) {
      expect(screen.getByLabelText(label).tagName).toBe('INPUT');
    }
  });

  it('shows the spec §5 "required" messages, linked to their fields', async () => {
    const onSubmit = vi.fn();
    render(<SignUpForm onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));

    for (const message of [
      AUTH_MESSAGES.nameRequired,
      AUTH_MESSAGES.photoRequired,
      AUTH_MESSAGES.phoneRequired,
      AUTH_MESSAGES.emailRequired,
      AUTH_MESSAGES.passwordRequired,
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    const describedBy = name.getAttribute('aria-describedby');
    expect(describedBy && document.getElementById(describedBy)?.textContent).toBe(AUTH_MESSAGES.nameRequired);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the phone and password rule messages', async () => {
    render(<SignUpForm onSubmit={vi.fn()} />);
    fill('Phone', '12345');
    fill('Password', 'abc');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText(AUTH_MESSAGES.phoneMin)).toBeTruthy();
    expect(screen.getByText(AUTH_MESSAGES.passwordMin)).toBeTruthy();

    fill('Phone', '1'.repeat(21));
    fill('Password', 'abcdef');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText(AUTH_MESSAGES.phoneMax)).toBeTruthy();
    expect(screen.getByText(AUTH_MESSAGES.passwordPattern)).toBeTruthy();

    fill('Phone', '12-ab-345');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText(AUTH_MESSAGES.phonePattern)).toBeTruthy();
  });

  it('submits valid values and maps server field errors back onto fields', async () => {
    const onSubmit = vi.fn().mockRejectedValue(
      new ApiError({
        status: 409,
        code: 'conflict',
        message: 'Taken',
        fields: { email: 'That e-mail is already registered' },
      }),
    );
    render(<SignUpForm onSubmit={onSubmit} />);
    fill('Name', 'Ada Lovelace');
    fill('Photo URL', 'https://example.test/ada.png');
    fill('Phone', '+880 1712-345678');
    fill('Email', 'Ada@Example.test');
    fill('Password', 'Secret!1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      name: 'Ada Lovelace',
      image: 'https://example.test/ada.png',
      phone: '+880 1712-345678',
      email: 'ada@example.test',
      password: 'Secret!1',
    });
    expect(await screen.findByText('That e-mail is already registered')).toBeTruthy();
  });
});
