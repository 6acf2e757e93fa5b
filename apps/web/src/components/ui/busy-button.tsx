import type { ButtonHTMLAttributes, Ref } from 'react';

type BusyButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** The action runs: a spinner shows and the button refuses presses. */
  busy: boolean;
  ref?: Ref<HTMLButtonElement>;
};

/**
 * A daisyUI button for an action that takes a moment (a form's submit, a mutation): while `busy`
 * it shows a spinner beside its text, is disabled and says so to screen readers (`aria-busy`).
 * `disabled` still applies on its own (another action of the same form runs).
 */
export function BusyButton({
  busy,
  disabled,
  className = '',
  type = 'button',
  children,
  ref,
  ...button
}: BusyButtonProps) {
  return (
    <button
      ref={ref}
      type={type}
      className={`btn ${className}`}
      disabled={busy || disabled}
      aria-busy={busy || undefined}
      {...button}
    >
      {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
