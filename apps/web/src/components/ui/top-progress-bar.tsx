/** The thin bar at the top of the window while login and role state load (spec §2 notes). */
export function TopProgressBar({ active }: { active: boolean }) {
  if (!active) return null;
  return (
    <div className="fixed inset-x-0 top-0 z-[70] h-1" data-testid="top-progress">
      <progress className="progress progress-primary block h-1 w-full rounded-none" aria-label="Loading" />
    </div>
  );
}
