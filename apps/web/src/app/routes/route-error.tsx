import { useEffect, useState } from 'react';
import { paths } from '../../config/paths.ts';
import { isApiError } from '../../lib/api-client.ts';

interface Described {
  status: number | null;
  title: string;
  message: string;
  /** A 404: offer browsing the classes rather than a reload that cannot help. */
  unknown?: boolean;
}

const OFFLINE: Described = {
  status: null,
  title: 'You are offline',
  message: 'SkillHive cannot be reached. Check your connection, then reload the page.',
};
const UPDATED: Described = {
  status: null,
  title: 'SkillHive was updated',
  message: 'Reload the page to get the latest version.',
};

/** A lazy route's module that did not arrive: a deploy replaced it, or the network is gone. */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message)
  );
}

function describe(error: unknown): Described {
  if (isApiError(error)) {
    if (error.status === 404) return { status: 404, title: 'Not found', message: error.message, unknown: true };
    if (error.status === 0) return OFFLINE;
    return { status: error.status || null, title: 'Something went wrong', message: error.message };
  }
  return { status: null, title: 'Something went wrong', message: 'An unexpected error occurred. Please try again.' };
}

/**
 * A failed chunk load means "updated" only when the server answers with the new index.html;
 * offline (navigator.onLine false) or an unreachable server is said as such (decision 020).
 */
async function chunkFailureCause(): Promise<Described> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return OFFLINE;
  try {
    const response = await fetch(paths.home, { method: 'GET', cache: 'no-store', headers: { accept: 'text/html' } });
    return response.ok ? UPDATED : OFFLINE;
  } catch {
    return OFFLINE;
  }
}

function useDescribedError(error: unknown): Described | null {
  const chunkFailed = isChunkLoadError(error);
  const [cause, setCause] = useState<Described | null>(null);
  useEffect(() => {
    if (!chunkFailed) return;
    let current = true;
    const check = () => void chunkFailureCause().then((found) => current && setCause(found));
    check();
    // Coming back online changes the answer (and a reload then works).
    window.addEventListener('online', check);
    window.addEventListener('offline', check);
    return () => {
      current = false;
      window.removeEventListener('online', check);
      window.removeEventListener('offline', check);
    };
  }, [chunkFailed]);
  if (!chunkFailed) return describe(error);
  return cause;
}

/**
 * What a route's error boundary shows for a render error or a page whose code did not arrive
 * (DESIGN §1.10; the routes' `ErrorBoundary` in router.tsx). It uses plain links (full page loads) so it works even when
 * the error came from the app shell itself.
 */
export function RouteErrorPage({ error }: { error: unknown }) {
  const described = useDescribedError(error);
  if (!described) {
    return (
      <div role="status" className="flex min-h-40 items-center justify-center gap-3 text-muted">
        <span className="loading loading-spinner loading-md text-primary" aria-hidden="true" />
        <span>Checking the connection…</span>
      </div>
    );
  }
  const { status, title, message, unknown } = described;
  return (
    <div role="alert" className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
      <title>{`${title} — SkillHive`}</title>
      {status ? (
        <p className="text-6xl font-bold text-primary" aria-hidden="true">
          {status}
        </p>
      ) : null}
      <h1 className="text-3xl font-bold" tabIndex={-1}>
        {title}
      </h1>
      <p className="text-lg text-muted">{message}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <a href={paths.home} className="btn btn-primary">
          Back to home
        </a>
        {unknown ? (
          <a href={paths.allClasses} className="btn btn-outline">
            Browse classes
          </a>
        ) : (
          <button type="button" className="btn btn-outline" onClick={() => window.location.reload()}>
            Reload page
          </button>
        )}
      </div>
    </div>
  );
}

/** The last-resort boundary above the layout: the same page inside a landmark. */
export function RootErrorPage({ error }: { error: unknown }) {
  return (
    <main className="min-h-screen bg-base-100">
      <RouteErrorPage error={error} />
    </main>
  );
}
