/** A centred busy indicator for a region that is waiting; announced politely. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-muted">
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <span>{label}…</span>
    </div>
  );
}
