import type { ReactNode } from 'react';

/** A form's outcome: a polite status on success, an alert on failure. */
export function FormMessage({ kind, children }: { kind: 'success' | 'error'; children: ReactNode }) {
  return kind === 'success' ? (
    <div role="status" className="alert alert-success">
      <span className="break-words">{children}</span>
    </div>
  ) : (
    <div role="alert" className="alert alert-error">
      <span className="break-words">{children}</span>
    </div>
  );
}
