import { useCallback, useLayoutEffect, useRef } from 'react';
import type { NavigationState } from './app-router.tsx';

/** Where the scroll positions outlive a reload of the tab (they are per history entry). */
const STORAGE_KEY = 'skillhive:scroll-positions';

function readSaved(): Record<string, number> {
  try {
    const saved: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return saved && typeof saved === 'object' ? (saved as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/**
 * The browser's scroll behaviour for a single-page app, per history entry: a new page starts at
 * the top (or at its `#anchor`), back and forward return to where the person was, a reload keeps
 * the place, and a navigation with `preventScrollReset` (a filter, the search) leaves the scroll
 * alone. Returns the function that records the current entry's position before a navigation.
 */
export function useScrollRestoration(state: NavigationState): () => void {
  const positions = useRef<Record<string, number> | null>(null);
  const currentKey = useRef(state.location.key);

  const saveScroll = useCallback(() => {
    (positions.current ??= readSaved())[currentKey.current] = window.scrollY;
  }, []);

  useLayoutEffect(() => {
    const { history } = window;
    history.scrollRestoration = 'manual';
    const persist = () => {
      saveScroll();
      try {
        window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current));
      } catch {
        // Storage full or refused: positions are then kept for this page's life only.
      }
    };
    window.addEventListener('pagehide', persist);
    return () => {
      window.removeEventListener('pagehide', persist);
      history.scrollRestoration = 'auto';
    };
  }, [saveScroll]);

  useLayoutEffect(() => {
    const { action, location, preventScrollReset } = state;
    currentKey.current = location.key;
    if (location.hash) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    const position = (positions.current ??= readSaved())[location.key];
    if (action === 'POP' && position !== undefined) {
      window.scrollTo(0, position);
      return;
    }
    if (!preventScrollReset) window.scrollTo(0, 0);
  }, [state]);

  return saveScroll;
}
