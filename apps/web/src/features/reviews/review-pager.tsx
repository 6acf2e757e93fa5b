/** Newer and older pages of a class's reviews, with where the reader is (the class page, the teacher's class page). */
export function ReviewPager({
  page,
  pageCount,
  onPage,
}: {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Review pages" className="flex items-center gap-3">
      <button type="button" className="btn btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Newer reviews
      </button>
      <span className="text-sm" aria-live="polite">
        Page {page} of {pageCount}
      </span>
      <button type="button" className="btn btn-sm" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        Older reviews
      </button>
    </nav>
  );
}
