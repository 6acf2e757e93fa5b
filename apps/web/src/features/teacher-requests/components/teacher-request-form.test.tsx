import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TEACH_MESSAGES } from '@skillhive/shared/rules/messages';
import { TeacherRequestForm } from './teacher-request-form.tsx';

const applicant = { name: 'Sam Student', email: 'student1@skillhive.test', photoURL: 'https://example.test/sam.png' };

describe('TeacherRequestForm', () => {
  it('pre-fills name, e-mail and photo read-only and starts the selects on "Select…"', () => {
    render(<TeacherRequestForm applicant={applicant} onSubmit={vi.fn()} />);
    const name = screen.getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('Sam Student');
    expect(name.readOnly).toBe(true);
    expect((screen.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
    // The photo is shown as the picture, not as its address.
    expect(screen.getByRole('img', { name: 'Your photo' }).getAttribute('src')).toBe(applicant.photoURL);
    expect(screen.queryByLabelText('Photo URL')).toBeNull();
    const experience = screen.getByLabelText('Experience') as HTMLSelectElement;
    expect(experience.value).toBe('');
    expect([...experience.options].map((o) => o.textContent)).toEqual([
      'Select…',
      'Beginner',
      'Mid-level',
      'Experienced',
    ]);
    expect((screen.getByLabelText('Category') as HTMLSelectElement).options).toHaveLength(7);
  });

  it('requires experience, title and category', async () => {
    const onSubmit = vi.fn();
    render(<TeacherRequestForm applicant={applicant} onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole('button', { name: 'Submit for review' }));
    expect(await screen.findByText(TEACH_MESSAGES.experienceRequired)).toBeTruthy();
    expect(screen.getByText(TEACH_MESSAGES.titleRequired)).toBeTruthy();
    expect(screen.getByText(TEACH_MESSAGES.categoryRequired)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends only what the applicant chose', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    render(<TeacherRequestForm applicant={applicant} onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText('Experience'), { target: { value: 'mid-level' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'data-science' } });
    fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'Intro to pandas' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit for review' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        experience: 'mid-level',
        category: 'data-science',
        title: 'Intro to pandas',
      }),
    );
  });
});
