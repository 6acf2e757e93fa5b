import type { ReactNode } from 'react';

/** A failed load, with a way to try again. */
export function ErrorState({
  title = 'Something went wrong',
  message,
  onRetry,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
}) {
  return (
    <div
      role="alert"
      className="mx-auto flex max-w-lg flex-col items-center gap-3 rounded-box border border-error/40 bg-base-100 p-8 text-center"
    >
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="text-muted">{message}</p>
      {onRetry ? (
        <button type="button" className="btn btn-primary" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** Nothing to show, said plainly, with an optional next step. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-3 rounded-box bg-base-200 p-8 text-center">
      <svg viewBox="0 0 64 64" className="h-16 w-16" aria-hidden="true">
        <path d="M32 4 56 18v28L32 60 8 46V18z" fill="#fde7b0" stroke="#a14a07" strokeWidth="3" />
        <path d="M24 30h16M24 38h10" stroke="#1f2a44" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </div>
  );
}
