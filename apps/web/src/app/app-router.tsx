import { useLayoutEffect, useMemo, useState, useTransition, type ReactNode } from 'react';
import { Router, UNSAFE_createBrowserHistory, type Location, type Navigator, type NavigationType } from 'react-router';
import { NavigationPendingContext } from '../lib/navigation-pending.ts';
import { useScrollRestoration } from './scroll-restoration.ts';

type BrowserHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;

export interface NavigationState {
  action: NavigationType;
  location: Location;
  /** The navigation asked to keep the scroll position (`preventScrollReset`: filters, search). */
  preventScrollReset: boolean;
}

/**
 * The browser router (decision 022, the declarative router). React Router's own `BrowserRouter`
 * with two things it does not give: whether a navigation is still pending, and each navigation's
 * `preventScrollReset`, for our scroll restoration. `onNavigate` hears a navigation before it
 * renders, so the new page's code and data start downloading at once.
 */
export function AppRouter({
  children,
  onNavigate,
}: {
  children: ReactNode;
  onNavigate?: (location: Location) => void;
}) {
  const [history] = useState<BrowserHistory>(() => UNSAFE_createBrowserHistory({ v5Compat: true }));
  const [state, setState] = useState<NavigationState>(() => ({
    action: history.action,
    location: history.location,
    preventScrollReset: false,
  }));
  const [pending, startTransition] = useTransition();
  const { navigator, keepScroll } = useMemo(() => scrollAwareNavigator(history), [history]);
  const saveScroll = useScrollRestoration(state);

  useLayoutEffect(
    () =>
      history.listen(({ action, location }) => {
        saveScroll();
        onNavigate?.(location);
        const next = { action, location, preventScrollReset: keepScroll.take() };
        startTransition(() => setState(next));
      }),
    [history, keepScroll, onNavigate, saveScroll],
  );

  return (
    <NavigationPendingContext.Provider value={pending}>
      <Router location={state.location} navigationType={state.action} navigator={navigator}>
        {children}
      </Router>
    </NavigationPendingContext.Provider>
  );
}

/** The history as React Router's navigator, remembering whether the last push or replace asked to keep the scroll. */
function scrollAwareNavigator(history: BrowserHistory) {
  let preventScrollReset = false;
  const keepScroll = {
    take(): boolean {
      const value = preventScrollReset;
      preventScrollReset = false;
      return value;
    },
  };
  const navigator: Navigator = {
    createHref: (to) => history.createHref(to),
    encodeLocation: (to) => history.encodeLocation(to),
    go: (delta) => history.go(delta),
    push(to, state, options) {
      preventScrollReset = options?.preventScrollReset === true;
      history.push(to, state);
    },
    replace(to, state, options) {
      preventScrollReset = options?.preventScrollReset === true;
      history.replace(to, state);
    },
  };
  return { navigator, keepScroll };
}
