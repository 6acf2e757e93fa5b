import { useEffect, useRef, type RefObject } from 'react';
import { useLocation, useNavigation } from 'react-router';

/**
 * After a navigation to another page, focus moves to the new page's heading (issue 20 §3), so
 * a screen reader announces where the person is and the keyboard starts from the top of the
 * content instead of the link that was pressed. Not on the first page load (the browser starts
 * at the top), not for a change of query string only (pages, filters: focus stays in the
 * control), not for an in-page #anchor.
 */
export function useFocusOnNavigate(main: RefObject<HTMLElement | null>): void {
  const { pathname, hash } = useLocation();
  const navigation = useNavigation();
  const previous = useRef(pathname);
  const idle = navigation.state === 'idle';

  useEffect(() => {
    if (!idle || previous.current === pathname) return;
    previous.current = pathname;
    if (hash) return;
    const frame = window.requestAnimationFrame(() => {
      const container = main.current;
      if (!container) return;
      // A dialog opened meanwhile (a redirect's confirmation) keeps its own focus.
      if (document.activeElement?.closest('dialog[open]')) return;
      const heading = container.querySelector<HTMLElement>('h1');
      const target = heading ?? container;
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    });
    return () => window.cancelAnimationFrame(frame);
  }, [idle, pathname, hash, main]);
}
