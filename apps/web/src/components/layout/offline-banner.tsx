import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Says so while the browser is offline (decision 020): what is on screen may be out of date. */
export function OfflineBanner() {
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
  if (online) return null;
  return (
    <p
      role="status"
      className="bg-warning px-4 py-2 text-center font-medium text-warning-content"
      data-testid="offline-banner"
    >
      You are offline. What you see may be out of date; changes will not be saved until you are back online.
    </p>
  );
}
