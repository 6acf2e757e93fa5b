import { createContext, useContext } from 'react';

/** Provided by the app's router (src/app/app-router.tsx); false outside it (tests' memory routers). */
export const NavigationPendingContext = createContext(false);

/**
 * True while a navigation waits for its page's code: the current page stays on screen (the
 * location changes in a transition) and the layout shows the progress bar (decision 022).
 */
export function useNavigationPending(): boolean {
  return useContext(NavigationPendingContext);
}
