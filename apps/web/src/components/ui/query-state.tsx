import type { ReactNode } from 'react';

/** spec §8: while a dashboard screen loads, "Loading..." is shown (announced politely). */
export function LoadingState({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-40 items-center justify-center gap-3 text-muted">
      <span className="loading loading-spinner loading-md text-primary" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

interface FetchErrorProps {
  /** What failed to load; spec §8 spells the profile and my-class case "Error fetching profile:". */
  what: string;
  error: unknown;
  onRetry?: () => void;
  children?: ReactNode;
}

/** spec §8: "Error fetching <what>: <the error's message>". */
export function FetchError({ what, error, onRetry, children }: FetchErrorProps) {
  const message = error instanceof Error && error.message ? error.message : 'Something went wrong.';
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-box border border-error/40 bg-base-100 p-5">
      <p className="font-medium text-error">
        Error fetching {what}: {message}
      </p>
      {children}
      {onRetry ? (
        <button type="button" className="btn btn-sm btn-outline" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
