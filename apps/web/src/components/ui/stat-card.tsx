import type { ReactNode } from 'react';

/** One figure of a dashboard home: a label above a big value. */
export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-2xl font-bold break-words">{value}</dd>
      {hint ? <dd className="text-sm text-muted">{hint}</dd> : null}
    </div>
  );
}

/** A responsive grid of StatCards (a description list, so each value is tied to its label). */
export function StatGrid({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-1 gap-3 min-[400px]:grid-cols-2 lg:grid-cols-4">{children}</dl>;
}
