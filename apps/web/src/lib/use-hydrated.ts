import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False in the server's HTML and while the browser hydrates it (decision 030), true from the
 * render after: what a page runs only once its scripts do — a form, which without them would be
 * sent by the browser itself — waits for this.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
