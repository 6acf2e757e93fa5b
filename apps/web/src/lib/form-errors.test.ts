import { describe, expect, it } from 'vitest';
import type { ErrorOption, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client.ts';
import { showSubmitError } from './form-errors.ts';

type Form = { title: string; price: string };

function recorder() {
  const set: Record<string, ErrorOption> = {};
  const setError: UseFormSetError<Form> = (name, error) => {
    set[name] = error;
  };
  return { set, setError };
}

describe('showSubmitError', () => {
  it("puts the server's field messages under the form's own fields and leaves no form message", () => {
    const { set, setError } = recorder();
    const error = new ApiError({
      status: 400,
      code: 'validation_error',
      message: 'Invalid input',
      fields: { price: 'Price must be at least 0.01', other: 'not on this form' },
    });
    expect(showSubmitError<Form>(error, ['title', 'price'], setError, 'Could not save.')).toBeNull();
    expect(set).toEqual({ price: { type: 'server', message: 'Price must be at least 0.01' } });
  });

  it("returns the error's own message for the whole form when no field is the form's", () => {
    const { set, setError } = recorder();
    const error = new ApiError({ status: 409, code: 'conflict', message: 'You already applied', fields: { x: 'y' } });
    expect(showSubmitError<Form>(error, ['title', 'price'], setError, 'Could not save.')).toBe('You already applied');
    expect(set).toEqual({});
  });

  it('falls back to the given words for an error without a message', () => {
    const { setError } = recorder();
    expect(showSubmitError<Form>('offline', ['title'], setError, 'Could not save.')).toBe('Could not save.');
  });
});
