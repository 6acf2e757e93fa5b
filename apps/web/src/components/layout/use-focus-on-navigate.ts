import { useEffect, useRef, type RefObject } from 'react';
import { useLocation, useNavigation } from 'react-router';

/** How long a page may take to show its heading (a guard's spinner, then the page) before we give up. */
const HEADING_WAIT_MS = 5_000;

/**
 * After a navigation to another page, focus moves to the new page's heading, so
 * a screen reader announces where the person is and the keyboard starts from the top of the
 * content instead of the link that was pressed. Not on the first page load (the browser starts
 * at the top), not for a change of query string only (pages, filters: focus stays in the
 * control), not for an in-page #anchor. A page that shows its heading only after a check (a
 * guard's spinner) gets focus when the heading appears, unless the person has moved on.
 */
export function useFocusOnNavigate(main: RefObject<HTMLElement | null>): void {
  const { pathname, hash } = useLocation();
  const previous = useRef(pathname);
  const idle = useNavigation().state === 'idle';

  useEffect(() => {
    if (!idle || previous.current === pathname) return;
    previous.current = pathname;
    const container = main.current;
    if (hash || !container) return;

    /** Focus is still nowhere in particular: on the page, the content area, or an element that left. */
    const focusIsFree = () => {
      const active = document.activeElement;
      return !active || active === document.body || active === container || !active.isConnected;
    };
    const focus = (target: HTMLElement) => {
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    };
    const tryHeading = (): boolean => {
      // A dialog opened meanwhile keeps its own focus.
      if (document.activeElement?.closest('dialog[open]')) return true;
      const heading = container.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      focus(heading);
      return true;
    };

    let observer: MutationObserver | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = window.requestAnimationFrame(() => {
      if (tryHeading()) return;
      focus(container);
      observer = new MutationObserver(() => {
        if (!focusIsFree()) return;
        if (tryHeading()) observer?.disconnect();
      });
      observer.observe(container, { childList: true, subtree: true });
      timer = setTimeout(() => observer?.disconnect(), HEADING_WAIT_MS);
    });
    return () => {
      window.cancelAnimationFrame(frame);
      observer?.disconnect();
      clearTimeout(timer);
    };
  }, [idle, pathname, hash, main]);
}
