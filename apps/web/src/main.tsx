import './index.css';
import { SERVER_STATE_ID } from './app/server-state.ts';
import { applyStoredTheme } from './lib/theme.ts';

/*
 * The page's first script, and the only one its HTML names when the server rendered it
 * (decision 037). Such a page is already readable: the app's code (React, the router, the page's
 * chunks) is fetched only once the page has loaded — its largest image included — and been
 * painted, so on a slow network those 125 KB do not share the bandwidth with what the visitor
 * sees first. A page the browser renders (the dashboard) has nothing to show before its code and
 * starts it at once; its HTML preloads that code.
 */

applyStoredTheme();

/** Once the document and its images have loaded and a frame with them has been painted. */
function loadedAndPainted(): Promise<void> {
  return new Promise((resolve) => {
    const afterPaint = () => {
      // The task after the next frame: that frame has been painted. A hidden tab paints none,
      // and has nothing on screen to wait for.
      if (document.visibilityState === 'hidden') resolve();
      else requestAnimationFrame(() => setTimeout(resolve, 0));
    };
    if (document.readyState === 'complete') afterPaint();
    else window.addEventListener('load', afterPaint, { once: true });
  });
}

if (document.getElementById(SERVER_STATE_ID)) await loadedAndPainted();
await import('./start-app.tsx');
