import { isRouteErrorResponse, useRouteError } from 'react-router';
import { paths } from '../../config/paths.ts';
import { isApiError } from '../../lib/api-client.ts';

function describe(error: unknown): { status: number | null; title: string; message: string } {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404)
      return { status: 404, title: 'Page not found', message: 'We could not find what you were looking for.' };
    return { status: error.status, title: 'Something went wrong', message: error.statusText || 'Please try again.' };
  }
  if (isApiError(error)) {
    if (error.status === 404) return { status: 404, title: 'Not found', message: error.message };
    return { status: error.status || null, title: 'Something went wrong', message: error.message };
  }
  // A failed lazy import usually means a new version was deployed: a reload fetches it.
  if (
    error instanceof TypeError &&
    /dynamically imported module|Importing a module script failed/i.test(error.message)
  ) {
    return { status: null, title: 'SkillHive was updated', message: 'Reload the page to get the latest version.' };
  }
  return { status: null, title: 'Something went wrong', message: 'An unexpected error occurred. Please try again.' };
}

/**
 * The error element for failed loaders and render errors (DESIGN §1.10). It uses plain links (full
 * page loads) so it works even when the error came from the app shell itself.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const { status, title, message } = describe(error);
  return (
    <div role="alert" className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
      <title>{`${title} — SkillHive`}</title>
      {status ? (
        <p className="text-6xl font-bold text-primary" aria-hidden="true">
          {status}
        </p>
      ) : null}
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-lg text-muted">{message}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <a href={paths.home} className="btn btn-primary">
          Back to home
        </a>
        <button type="button" className="btn btn-outline" onClick={() => window.location.reload()}>
          Reload page
        </button>
      </div>
    </div>
  );
}

/** The last-resort boundary above the layout: the same page inside a landmark. */
export function RootErrorPage() {
  return (
    <main className="min-h-screen bg-base-100">
      <RouteErrorPage />
    </main>
  );
}
