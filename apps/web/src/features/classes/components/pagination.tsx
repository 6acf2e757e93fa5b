import { Link } from 'react-router';

interface PaginationProps {
  page: number;
  pageCount: number;
  /** The total was a floor: pages may follow `pageCount`, so no last page is named and Next stays. */
  morePages?: boolean;
  /** The URL (search string) of a page, keeping every other parameter. */
  hrefFor: (page: number) => string;
}

/**
 * Pages around the current one, with the first and last always reachable. With `morePages` the
 * last page is unknown: the window ends with the next page and a gap.
 */
export function pageWindow(page: number, pageCount: number, morePages = false): Array<number | 'gap'> {
  const last = morePages ? Math.max(pageCount, page + 1) : pageCount;
  const ends = morePages ? [1] : [1, pageCount];
  const pages = new Set([...ends, page - 1, page, page + 1].filter((p) => p >= 1 && p <= last));
  const sorted = [...pages].sort((a, b) => a - b);
  const result: Array<number | 'gap'> = [];
  sorted.forEach((p, index) => {
    const previous = sorted[index - 1];
    if (previous !== undefined && p - previous > 1) result.push('gap');
    result.push(p);
  });
  if (morePages) result.push('gap');
  return result;
}

export function Pagination({ page, pageCount, morePages = false, hrefFor }: PaginationProps) {
  if (pageCount <= 1 && !morePages) return null;
  const items = pageWindow(page, pageCount, morePages);
  return (
    <nav aria-label="Pagination" className="mt-10 flex justify-center">
      <ul className="join flex-wrap justify-center">
        <li>
          {page > 1 ? (
            <Link to={hrefFor(page - 1)} className="btn join-item" rel="prev">
              Previous
            </Link>
          ) : (
            <span className="btn join-item btn-disabled" aria-disabled="true">
              Previous
            </span>
          )}
        </li>
        {items.map((item, index) =>
          item === 'gap' ? (
            <li key={`gap-${index}`}>
              <span className="btn join-item btn-disabled" aria-hidden="true">
                …
              </span>
            </li>
          ) : (
            <li key={item}>
              <Link
                to={hrefFor(item)}
                className={`btn join-item ${item === page ? 'btn-primary' : ''}`}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
              >
                {item}
              </Link>
            </li>
          ),
        )}
        <li>
          {page < pageCount || morePages ? (
            <Link to={hrefFor(page + 1)} className="btn join-item" rel="next">
              Next
            </Link>
          ) : (
            <span className="btn join-item btn-disabled" aria-disabled="true">
              Next
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
