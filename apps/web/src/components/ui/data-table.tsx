import { useEffect, useLayoutEffect, useRef, type CSSProperties, type ReactNode, type RefObject } from 'react';

/** The stylesheet labels stacked cells for up to this many columns (index.css, `.stacked-table`). */
const MAX_STACKED_COLUMNS = 8;

/** `"Name"` as a CSS string, for `content: var(--col-n)`. */
function cssString(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&')}"`;
}

/** A layout effect in the browser; nothing on the server (which has no layout to measure). */
const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Rows as cards (`is-stacked`) exactly when the table, laid out as a table, is wider than its
 * column — whatever the screen, the sidebar or the data — so no action ends past the edge in a
 * sideways scroller. Measured before paint on every render (new rows) and when the column resizes.
 */
function useStackWhenTooWide(frame: RefObject<HTMLDivElement | null>, table: RefObject<HTMLTableElement | null>) {
  useBrowserLayoutEffect(() => {
    const box = frame.current;
    const grid = table.current;
    if (!box || !grid) return;
    const fit = () => {
      grid.classList.remove('is-stacked');
      // One pixel of slack for sub-pixel widths.
      grid.classList.toggle('is-stacked', grid.scrollWidth > box.clientWidth + 1);
    };
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    let width = box.clientWidth;
    const observer = new ResizeObserver(() => {
      if (box.clientWidth === width) return;
      width = box.clientWidth;
      fit();
    });
    observer.observe(box);
    return () => observer.disconnect();
  });
}

/**
 * A dashboard table: column headers, then the rows given as children. As long as it fits its
 * column it is a table; when it would not (a phone, a narrow window beside the dashboard menu)
 * every row is a card of labelled lines, so the actions stay on screen instead of in a sideways
 * scroller. The labels come from `columns` through CSS custom properties, so the rows' markup
 * stays a plain table for assistive technology. Badges and buttons never wrap (index.css).
 */
export function DataTable({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
  if (columns.length > MAX_STACKED_COLUMNS) throw new Error(`DataTable labels at most ${MAX_STACKED_COLUMNS} columns`);
  const labels = Object.fromEntries(
    columns.map((column, index) => [`--col-${index + 1}`, cssString(column)]),
  ) as CSSProperties;
  const frame = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLTableElement>(null);
  useStackWhenTooWide(frame, table);
  return (
    <div
      ref={frame}
      className="rounded-box border-base-300 sm:overflow-x-auto sm:border"
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table ref={table} className="stacked-table table table-sm md:table-md" style={labels}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
