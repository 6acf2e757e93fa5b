import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { errorMessage, isApiError } from './api-client.ts';

/**
 * A refused submission, shown where it belongs: the API's field messages (`error.fields`, DESIGN
 * §3) go under the form's own fields of that name; when none of them is one of `fields`, the
 * message for the whole form is returned (the error's own, else `fallback`), otherwise null.
 */
export function showSubmitError<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  fallback: string,
): string | null {
  let mapped = false;
  for (const [field, message] of Object.entries(isApiError(error) ? (error.fields ?? {}) : {})) {
    if ((fields as readonly string[]).includes(field)) {
      setError(field as Path<T>, { type: 'server', message });
      mapped = true;
    }
  }
  return mapped ? null : errorMessage(error, fallback);
}

/**
 * A form's submissions with their refusal shown through showSubmitError: `attempt(action)` clears
 * the last message, runs one submission and, when it throws, sets `formError` (the message for
 * the whole form, or null when every message went under a field).
 */
export function useSubmitError<T extends FieldValues>(
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  fallback: string,
): { formError: string | null; attempt: (action: () => Promise<unknown>) => Promise<void> } {
  const [formError, setFormError] = useState<string | null>(null);
  const attempt = async (action: () => Promise<unknown>) => {
    setFormError(null);
    try {
      await action();
    } catch (error) {
      setFormError(showSubmitError(error, fields, setError, fallback));
    }
  };
  return { formError, attempt };
}
