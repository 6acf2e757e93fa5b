import type { ScenarioResult } from './http.ts';

/** A plain-text table with right-aligned numbers. */
export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = rows.map((row) => row.map((c) => (c === null || c === undefined ? '–' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const isNumeric = headers.map((_, i) => cells.every((row) => /^[-–\d.,%×x ]*$/.test(row[i] ?? '')));
  const line = (row: string[]) =>
    row
      .map((c, i) => (isNumeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

export const fmt = {
  int: (n: number | null | undefined) => (n === null || n === undefined ? null : Math.round(n).toLocaleString('en-US')),
  ms: (n: number | null | undefined) =>
    n === null || n === undefined ? null : n >= 100 ? String(Math.round(n)) : n.toFixed(1),
  ratio: (n: number | null | undefined) =>
    n === null || n === undefined ? null : n >= 10 ? `${Math.round(n)}×` : `${Math.round(n * 100)}%`,
};

export function scenarioRows(results: ScenarioResult[]): (string | number | null | undefined)[][] {
  return results.map((r) =>
    r.skipped
      ? [r.title, 'skipped', null, null, null, null, null, r.skipped]
      : [
          r.title,
          r.id.startsWith('purchase-flow') ? `${r.rps} flows/s` : fmt.int(r.rps),
          fmt.ms(r.p50),
          fmt.ms(r.p99),
          `${r.non2xx ?? 0}/${r.errors ?? 0}`,
          fmt.ratio(r.vsFastify),
          fmt.ratio(r.vsDatabase),
          r.request,
        ],
  );
}

export const SCENARIO_HEADERS = [
  'scenario',
  'req/s',
  'p50 ms',
  'p99 ms',
  'non2xx/err',
  'vs Fastify',
  'vs DB',
  'request',
];

export interface Target {
  name: string;
  target: string;
  measured: string;
  met: boolean | null;
  note?: string;
}

export function targetRows(targets: Target[]): string[][] {
  return targets.map((t) => [
    t.met === null ? 'n/a' : t.met ? 'met' : 'MISSED',
    t.name,
    t.target,
    t.measured,
    t.note ?? '',
  ]);
}
