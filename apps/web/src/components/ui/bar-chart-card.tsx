import { useId } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';

export interface BarDatum {
  label: string;
  value: number;
}

interface BarChartCardProps {
  title: string;
  data: BarDatum[];
  /** Column header of the values in the screen-reader table, e.g. "Enrolments". */
  valueLabel: string;
  formatValue?: (value: number) => string;
  emptyText?: string;
  colors?: readonly string[];
}

const DEFAULT_COLORS = ['#a14a07', '#1f2a44', '#15803d', '#1d4ed8', '#b91c1c', '#7c3aed'] as const;

/**
 * A bar chart with its numbers also given as a table. The drawing is hidden from assistive
 * technology (a picture of the table); the table is visually hidden but read in full. Recharts is
 * only imported by lazily loaded dashboard screens, so public pages never download it.
 */
export function BarChartCard({
  title,
  data,
  valueLabel,
  formatValue = String,
  emptyText = 'No data yet.',
  colors = DEFAULT_COLORS,
}: BarChartCardProps) {
  const titleId = useId();
  const hasData = data.some((d) => d.value > 0);
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
          <div aria-hidden="true" className="h-60 w-full min-w-0">
            <BarChart
              responsive
              accessibilityLayer={false}
              data={data}
              style={{ width: '100%', height: '100%' }}
              margin={{ top: 8, right: 8, bottom: 8, left: 0 }}
            >
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" tick={{ fill: '#1c1917', fontSize: 12 }} interval="preserveStartEnd" />
              <YAxis
                allowDecimals={false}
                width={48}
                tick={{ fill: '#1c1917', fontSize: 12 }}
                tickFormatter={(v: number) => formatValue(v)}
              />
              <Tooltip formatter={(v) => formatValue(Number(v))} />
              <Bar dataKey="value" name={valueLabel} isAnimationActive={false}>
                {data.map((d, index) => (
                  <Cell key={d.label} fill={colors[index % colors.length]} />
                ))}
              </Bar>
            </BarChart>
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
