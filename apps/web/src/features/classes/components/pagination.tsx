import { Link } from 'react-router';

interface PaginationProps {
  page: number;
  pageCount: number;
  /** The URL (search string) of a page, keeping every other parameter. */
  hrefFor: (page: number) => string;
}

/** Pages around the current one, with the first and last always reachable. */
export function pageWindow(page: number, pageCount: number): Array<number | 'gap'> {
  const pages = new Set([1, pageCount, page - 1, page, page + 1].filter((p) => p >= 1 && p <= pageCount));
  const sorted = [...pages].sort((a, b) => a - b);
  const result: Array<number | 'gap'> = [];
  sorted.forEach((p, index) => {
    const previous = sorted[index - 1];
    if (previous !== undefined && p - previous > 1) result.push('gap');
    result.push(p);
  });
  return result;
}

export function Pagination({ page, pageCount, hrefFor }: PaginationProps) {
  if (pageCount <= 1) return null;
  const items = pageWindow(page, pageCount);
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
          {page < pageCount ? (
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
