import { createHash } from 'node:crypto';

/**
 * Decision 049: a page rendered on the server starts downloading and running the app's code only
 * after its first contentful paint. Lighthouse's simulated phone counts every request that ended,
 * and every script that ran, before the observed paint as work the paint waited for; with the code
 * named as `<link rel="modulepreload">` and `<script src>` in the head, the 125 KB of it shared
 * the slow link with the stylesheet and the page's largest image (BENCHMARKS.md).
 *
 * The page keeps naming its code exactly as before, inside an inert `<template>` (nothing in a
 * template is fetched or run), and a small inline module script puts the links in the head and
 * imports the entry once the browser reports the first contentful paint. The links go in
 * together, so the chunks download in parallel, as they did from the HTML.
 */

/** The element that holds the page's code until the first paint. */
export const CODE_TEMPLATE_ID = 'skillhive-code';

/**
 * The loader. Fixed text, so the CSP allows it by its hash and every anonymous visitor still
 * shares the same bytes (decision 030, point 7). The entry's URL is read as written (`src`
 * would resolve it against the template's inert document). Where the browser does not report
 * paints, the next frame is the first paint; a browser that reports none at all (privacy
 * settings) gets the code a moment after the `load` event.
 */
export const CODE_LOADER = [
  `const code = document.getElementById('${CODE_TEMPLATE_ID}').content;`,
  'let started = false;',
  'const start = () => {',
  '  if (started) return;',
  '  started = true;',
  "  for (const link of code.querySelectorAll('link')) document.head.append(document.importNode(link));",
  "  import(code.querySelector('script').getAttribute('src'));",
  '};',
  "if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {",
  '  new PerformanceObserver((entries, observer) => {',
  "    if (entries.getEntriesByName('first-contentful-paint').length === 0) return;",
  '    observer.disconnect();',
  '    start();',
  "  }).observe({ type: 'paint', buffered: true });",
  '} else {',
  '  requestAnimationFrame(() => setTimeout(start));',
  '}',
  "addEventListener('load', () => setTimeout(start, 3000));",
].join('\n');

/** The CSP source that allows the loader and no other inline script. */
export const CODE_LOADER_SOURCE = `'sha256-${createHash('sha256').update(CODE_LOADER).digest('base64')}'`;

/** The app's code as index.html names it: the entry script and the chunks preloaded with it. */
const CODE_TAG =
  /[ \t]*<(?:script type="module" crossorigin src="[^"]+"><\/script>|link rel="modulepreload" crossorigin href="[^"]+">)\n?/g;

/**
 * A page's index.html (its route's preloads included) with its code named inside the template
 * and started by the loader. A page without an entry script is returned as it is.
 */
export function withCodeAfterPaint(html: string): string {
  const tags = html.match(CODE_TAG)?.map((tag) => tag.trim()) ?? [];
  if (!tags.some((tag) => tag.startsWith('<script'))) return html;
  // The preloads first, then the entry: the order the loader adds them in.
  const ordered = [
    ...tags.filter((tag) => tag.startsWith('<link')),
    ...tags.filter((tag) => tag.startsWith('<script')),
  ];
  const deferred =
    `  <template id="${CODE_TEMPLATE_ID}">${ordered.join('')}</template>\n` +
    `    <script type="module">${CODE_LOADER}</script>\n  </head>`;
  return html.replace(CODE_TAG, '').replace('</head>', () => deferred);
}

/** The page's CSP with the loader allowed: its hash added to `script-src` (strict: no 'unsafe-inline'). */
export function allowCodeLoader(csp: string): string {
  return csp.replace(/(^|;\s*)script-src ([^;]*)/, (_match, start: string, sources: string) =>
    sources.split(' ').includes(CODE_LOADER_SOURCE)
      ? `${start}script-src ${sources}`
      : `${start}script-src ${sources} ${CODE_LOADER_SOURCE}`,
  );
}
