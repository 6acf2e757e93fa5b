import type { ReactNode } from 'react';

/**
 * A dashboard table: column headers, then the rows given as children. It scrolls sideways inside
 * a labelled, focusable region, so at 360 px the page keeps its width and the keyboard can scroll it.
 */
export function DataTable({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-box border border-base-300" role="region" aria-label={label} tabIndex={0}>
      <table className="table table-sm md:table-md">
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
