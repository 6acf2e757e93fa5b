import type { CSSProperties, ReactNode } from 'react';

/** The stylesheet labels stacked cells for up to this many columns (index.css, `.stacked-table`). */
const MAX_STACKED_COLUMNS = 8;

/** `"Name"` as a CSS string, for `content: var(--col-n)`. */
function cssString(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * A dashboard table: column headers, then the rows given as children. From the `sm` breakpoint it
 * is a table; below it every row is a card of labelled lines, so at 360 px the
 * actions stay on screen instead of in a sideways scroller. The labels come from `columns`
 * through CSS custom properties, so the rows' markup stays a plain table for assistive technology.
 */
export function DataTable({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
  if (columns.length > MAX_STACKED_COLUMNS) throw new Error(`DataTable labels at most ${MAX_STACKED_COLUMNS} columns`);
  const labels = Object.fromEntries(
    columns.map((column, index) => [`--col-${index + 1}`, cssString(column)]),
  ) as CSSProperties;
  return (
    <div
      className="rounded-box border-base-300 sm:overflow-x-auto sm:border"
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table className="stacked-table table table-sm md:table-md" style={labels}>
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
