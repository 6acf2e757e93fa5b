import type { FormEventHandler, ReactNode } from 'react';
import { notify } from '../../../lib/toast.ts';

/** One of the editor's forms: its fields, then a refusal, then its buttons. */
export function EditorForm({
  label,
  onSubmit,
  alert,
  actions,
  children,
}: {
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  alert: string | null | undefined;
  actions: ReactNode;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label={label}>
      {children}
      {alert ? (
        <p role="alert" className="text-sm font-medium text-error">
          {alert}
        </p>
      ) : null}
      {actions}
    </form>
  );
}

/** A new session or material is stored as a draft: say so, and empty the form for the next one. */
export function draftAdded(message: string, reset: () => void) {
  return () => {
    notify.success(message);
    reset();
  };
}
