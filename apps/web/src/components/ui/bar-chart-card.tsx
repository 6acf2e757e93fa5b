import { useId } from 'react';

export interface BarDatum {
  label: string;
  value: number;
}

interface BarChartCardProps {
  title: string;
  data: BarDatum[];
  /** Column header of the values in the screen-reader table, e.g. "Enrollments". */
  valueLabel: string;
  formatValue?: (value: number) => string;
  /** The axis's two labels, when formatValue is too wide for them (e.g. "$1.2K" for "$1,234.50"). */
  formatAxis?: (value: number) => string;
  emptyText?: string;
  colors?: readonly string[];
}

const DEFAULT_COLORS = ['#a14a07', '#1f2a44', '#15803d', '#1d4ed8', '#b91c1c', '#7c3aed'] as const;

/**
 * A bar chart with its numbers also given as a table. The bars are plain boxes sized in CSS (no
 * chart library: recharts cost ≈ 100 KB gzip for these few charts); the drawing is hidden from
 * assistive technology, and the visually hidden table is read in full instead.
 */
export function BarChartCard({
  title,
  data,
  valueLabel,
  formatValue = String,
  formatAxis = formatValue,
  emptyText = 'No data yet.',
  colors = DEFAULT_COLORS,
}: BarChartCardProps) {
  const titleId = useId();
  const max = Math.max(0, ...data.map((d) => d.value));
  const hasData = max > 0;
  return (
    <figure
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm"
    >
      <figcaption id={titleId} className="font-semibold">
        {title}
      </figcaption>
      {hasData ? (
        <>
          <div aria-hidden="true" className="flex h-60 w-full min-w-0 flex-col text-xs">
            <div className="flex min-h-0 flex-1 gap-2">
              <div className="flex w-12 shrink-0 flex-col justify-between text-right tabular-nums">
                <span>{formatAxis(max)}</span>
                <span>{formatAxis(0)}</span>
              </div>
              <div className="flex min-w-0 flex-1 items-end gap-1 border-b border-l border-base-300 px-1">
                {data.map((d, index) => (
                  <div
                    key={d.label}
                    title={`${d.label}: ${formatValue(d.value)}`}
                    className="min-w-0 flex-1 rounded-t-sm"
                    style={{
                      height: `${(d.value / max) * 100}%`,
                      backgroundColor: colors[index % colors.length],
                    }}
                  />
                ))}
              </div>
            </div>
            <div className="ml-14 flex gap-1 px-1 pt-1">
              {data.map((d) => (
                <span key={d.label} className="min-w-0 flex-1 truncate text-center">
                  {d.label}
                </span>
              ))}
            </div>
          </div>
          {/* sr-only on the wrapper: a table ignores the 1px box and would widen the page. */}
          <div className="sr-only">
            <table>
              <thead>
                <tr>
                  <th scope="col">{title}</th>
                  <th scope="col">{valueLabel}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((d) => (
                  <tr key={d.label}>
                    <th scope="row">{d.label}</th>
                    <td>{formatValue(d.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p className="text-muted">{emptyText}</p>
      )}
    </figure>
  );
}
