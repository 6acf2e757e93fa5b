import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { useHydrated } from '../../lib/use-hydrated.ts';

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

type FormProps = Omit<ComponentPropsWithoutRef<'form'>, 'aria-label' | 'noValidate'> & {
  /** Names the form for screen readers. */
  label: string;
  /** Why the last submission was refused, for the whole form (field errors go under their fields). */
  alert?: string | null | undefined;
};

/**
 * A form of the app: the browser's own checks are off (react-hook-form checks with the shared
 * schema and puts each message under its field), it is named, and a refusal of the whole form is
 * an alert above the fields.
 */
export function Form({ label, alert, className = 'flex flex-col gap-4', children, ...props }: FormProps) {
  // A page rendered on the server (decision 030) shows its forms before its scripts run. Until
  // they do, the fields are disabled: the browser must not send the form itself (a password in a
  // URL), and without JavaScript the form says that it needs it.
  const hydrated = useHydrated();
  return (
    <form noValidate aria-label={label} className={className} {...props}>
      <noscript>
        <FormMessage kind="error">This form needs JavaScript. Please turn it on and reload the page.</FormMessage>
      </noscript>
      {alert ? <FormMessage kind="error">{alert}</FormMessage> : null}
      <fieldset disabled={!hydrated} className="contents">
        {children}
      </fieldset>
    </form>
  );
}
