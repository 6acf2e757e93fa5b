import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ApiError } from '../../../lib/api-client.ts';
import { MAIL_RATE_LIMITED, verifyEmailMessage } from '../verify-email.ts';
import { VerifyEmailAlert } from './verify-email-notice.tsx';

const email = 'new.learner@skillhive.test';

describe('VerifyEmailAlert', () => {
  it('says why and where the link went', () => {
    render(<VerifyEmailAlert email={email} onResend={vi.fn()} />);
    expect(screen.getByText(verifyEmailMessage(email))).toBeTruthy();
    expect(verifyEmailMessage(email)).toBe(
      `Verify your e-mail address to apply to teach and to pay. We sent a link to ${email}.`,
    );
  });

  it('sends the link again and says so', async () => {
    const onResend = vi.fn().mockResolvedValue({ status: true });
    render(<VerifyEmailAlert email={email} onResend={onResend} />);
    fireEvent.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect((await screen.findByRole('status')).textContent).toBe('Sent. Check your inbox.');
    expect(onResend).toHaveBeenCalledTimes(1);
  });

  it('asks to wait when links were asked for too often (429)', async () => {
    const onResend = vi
      .fn()
      .mockRejectedValue(new ApiError({ status: 429, code: 'rate_limited', message: 'Too many requests' }));
    render(<VerifyEmailAlert email={email} onResend={onResend} />);
    fireEvent.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MAIL_RATE_LIMITED);
    expect(MAIL_RATE_LIMITED).toBe('You asked for several links just now. Please wait a few minutes.');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it("shows the server's message for other failures, and can try again", async () => {
    const onResend = vi
      .fn()
      .mockRejectedValueOnce(
        new ApiError({ status: 0, code: 'network_error', message: 'We could not reach SkillHive.' }),
      )
      .mockResolvedValueOnce({ status: true });
    render(<VerifyEmailAlert email={email} onResend={onResend} />);
    fireEvent.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect((await screen.findByRole('alert')).textContent).toBe('We could not reach SkillHive.');
    fireEvent.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect((await screen.findByRole('status')).textContent).toBe('Sent. Check your inbox.');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
