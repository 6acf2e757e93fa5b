import { useLocation } from 'react-router';

/** `navigate(to, { state: { reason } })`: the one line that says why the visitor is here. */
export function redirectReasonOf(state: unknown): string | null {
  const reason = (state as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' && reason.length > 0 && reason.length <= 200 ? reason : null;
}

/** Shown above the page a redirect landed on; gone on the next navigation (its history entry's state). */
export function RedirectNotice() {
  const location = useLocation();
  const reason = redirectReasonOf(location.state);
  if (!reason) return null;
  return (
    <p
      role="status"
      className="alert alert-info alert-soft mx-auto mb-6 w-full max-w-3xl"
      data-testid="redirect-reason"
    >
      {reason}
    </p>
  );
}
