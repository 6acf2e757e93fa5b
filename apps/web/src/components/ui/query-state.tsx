import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { isApiError } from '../../lib/api-client.ts';

/**
 * An id that names nothing (404) or is not an id at all (400) will not load on a second try: such
 * a failure offers a way on — browsing the classes — instead of "Try again".
 */
export function isUnknownId(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status === 400);
}

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
  const unknownId = isUnknownId(error);
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-box border border-error/40 bg-base-100 p-5">
      <p className="font-medium text-error">
        Error fetching {what}: {message}
      </p>
      {children}
      {unknownId ? (
        <Link to={paths.allClasses} className="btn btn-sm btn-primary">
          Browse classes
        </Link>
      ) : onRetry ? (
        <button type="button" className="btn btn-sm btn-outline" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export interface LoadedQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: T | undefined;
  refetch: () => unknown;
}

/**
 * One query's two other states — loading, failed (spec §8's "Error fetching <what>: …" with a
 * retry) — then `children` with its data. PagedQueryState is the same for a list with an empty
 * state.
 */
export function QueryState<T>({
  query,
  what,
  children,
}: {
  query: LoadedQuery<T>;
  /** For "Error fetching <what>: …". */
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingState />;
  if (query.isError || query.data === undefined)
    return <FetchError what={what} error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}

interface PagedQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data?: { items: T[]; total: number } | undefined;
  refetch: () => unknown;
}

/**
 * A paginated list's three other states — loading, failed (with a retry), empty — then the list
 * itself, rendered by `children` with the loaded page.
 */
export function PagedQueryState<T>({
  query,
  what,
  empty,
  children,
}: {
  query: PagedQuery<T>;
  /** For "Error fetching <what>: …". */
  what: string;
  /** Said when the page has no rows. */
  empty: ReactNode;
  children: (data: { items: T[]; total: number }) => ReactNode;
}) {
  if (query.isPending) return <LoadingState />;
  if (query.isError || !query.data) {
    return <FetchError what={what} error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (query.data.items.length === 0) return <p className="rounded-box bg-base-200 p-6">{empty}</p>;
  return children(query.data);
}
