import { Link, useSearchParams } from 'react-router';

/** Reads ?page= leniently: anything odd is page 1. */
export function usePageParam(name = 'page'): number {
  const [search] = useSearchParams();
  const page = Number.parseInt(search.get(name) ?? '1', 10);
  return Number.isFinite(page) && page >= 1 && page <= 10_000 ? page : 1;
}

interface PageControlsProps {
  page: number;
  total: number;
  limit: number;
  /** A label for the nav landmark, e.g. "Users pages". */
  label?: string;
  name?: string;
}

/**
 * Server pagination (DESIGN §3: ?page=&limit=, X-Total-Count) kept in the URL, so a page can be
 * shared and Back works. Only previous/next and "page N of M": short enough for 360 px.
 */
export function PageControls({ page, total, limit, label = 'Pagination', name = 'page' }: PageControlsProps) {
  const [search] = useSearchParams();
  const pageCount = Math.max(1, Math.ceil(total / limit));
  if (pageCount <= 1) return null;
  const hrefFor = (target: number) => {
    const next = new URLSearchParams(search);
    if (target <= 1) next.delete(name);
    else next.set(name, String(target));
    const qs = next.toString();
    return qs ? `?${qs}` : '?';
  };
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-center gap-3">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className="btn btn-sm" rel="prev">
          Previous
        </Link>
      ) : (
        <span className="btn btn-sm btn-disabled" aria-disabled="true">
          Previous
        </span>
      )}
      <span aria-current="page">
        Page {Math.min(page, pageCount)} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} className="btn btn-sm" rel="next">
          Next
        </Link>
      ) : (
        <span className="btn btn-sm btn-disabled" aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}
