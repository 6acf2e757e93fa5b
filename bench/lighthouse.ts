import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { REPO_ROOT } from './procs.ts';

export const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');

export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

export interface LighthousePage {
  path: string;
  runs: number;
  /** Scores 0–100 of the median run (by performance score). */
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  lcpMs: number | null;
  cls: number | null;
  tbtMs: number | null;
  fcpMs: number | null;
  /** Every run's performance score, to show the spread. */
  performanceRuns: (number | null)[];
  /** Audits that did not pass (score < 1) in the median run, for the categories other than performance. */
  failedAudits: { id: string; title: string; category: string }[];
  /** Performance opportunities of the median run. */
  opportunities: { id: string; title: string; savingsMs: number }[];
}

export interface FirstLoadJs {
  path: string;
  /** The JavaScript files the page loaded, as the browser requested them. */
  files: { url: string; gzipBytes: number | null; transferBytes: number; rawBytes: number }[];
  /** Sum of the gzip (level 9) sizes of those files as built in apps/web/dist. */
  gzipKB: number;
  /** What actually crossed the wire (the server picks brotli or gzip). */
  transferKB: number;
  rawKB: number;
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  mimeType?: string;
  transferSize?: number;
  resourceSize?: number;
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

const score = (lhr: Lhr, id: string) => {
  const value = lhr.categories[id]?.score;
  return value === null || value === undefined ? null : Math.round(value * 100);
};
const numeric = (lhr: Lhr, id: string, digits = 0) => {
  const value = lhr.audits[id]?.numericValue;
  if (value === undefined) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

function gzipSizeOf(url: string): number | null {
  const pathname = new URL(url).pathname;
  const file = path.join(WEB_DIST, pathname);
  if (!file.startsWith(WEB_DIST + path.sep) || !existsSync(file)) return null;
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

function firstLoadJs(lhr: Lhr, pathname: string): FirstLoadJs {
  const items = (
    (lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? []
  ).filter((item) => item.resourceType === 'Script' || /javascript/.test(item.mimeType ?? ''));
  const files = items.map((item) => ({
    url: new URL(item.url).pathname,
    gzipBytes: gzipSizeOf(item.url),
    transferBytes: item.transferSize ?? 0,
    rawBytes: item.resourceSize ?? 0,
  }));
  const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
  return {
    path: pathname,
    files,
    gzipKB: kb(files.reduce((sum, f) => sum + (f.gzipBytes ?? f.transferBytes), 0)),
    transferKB: kb(files.reduce((sum, f) => sum + f.transferBytes, 0)),
    rawKB: kb(files.reduce((sum, f) => sum + f.rawBytes, 0)),
  };
}

function summarize(pathname: string, runs: Lhr[]): LighthousePage {
  const sorted = [...runs].sort((a, b) => (score(a, 'performance') ?? 0) - (score(b, 'performance') ?? 0));
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const failedAudits: LighthousePage['failedAudits'] = [];
  for (const category of CATEGORIES) {
    if (category === 'performance') continue;
    for (const ref of median.categories[category]?.auditRefs ?? []) {
      const audit = median.audits[ref.id];
      if (
        audit &&
        audit.score !== null &&
        audit.score < 1 &&
        audit.scoreDisplayMode !== 'informative' &&
        audit.scoreDisplayMode !== 'notApplicable'
      ) {
        failedAudits.push({ id: ref.id, title: audit.title, category });
      }
    }
  }
  const opportunities = Object.values(median.audits)
    .map((audit) => ({
      id: audit.id,
      title: audit.title,
      savingsMs: Math.round((audit.metricSavings?.LCP ?? 0) + (audit.metricSavings?.FCP ?? 0)),
    }))
    .filter((o) => o.savingsMs > 0)
    .sort((a, b) => b.savingsMs - a.savingsMs)
    .slice(0, 5);
  return {
    path: pathname,
    runs: runs.length,
    performance: score(median, 'performance'),
    accessibility: score(median, 'accessibility'),
    bestPractices: score(median, 'best-practices'),
    seo: score(median, 'seo'),
    lcpMs: numeric(median, 'largest-contentful-paint'),
    cls: numeric(median, 'cumulative-layout-shift', 3),
    tbtMs: numeric(median, 'total-blocking-time'),
    fcpMs: numeric(median, 'first-contentful-paint'),
    performanceRuns: runs.map((r) => score(r, 'performance')),
    failedAudits,
    opportunities,
  };
}

/**
 * One Lighthouse audit. Chromium on a loaded machine now and then loses the page-load trace
 * (NO_NAVSTART, NO_FCP: "Please run Lighthouse again"); such a run is repeated, at most twice,
 * and said so in the log. Any other failure ends the bench.
 */
async function auditWithRetry(
  pathname: string,
  log: (line: string) => void,
  audit: () => ReturnType<typeof lighthouse>,
): Promise<Lhr> {
  for (let attempt = 1; ; attempt++) {
    const result = await audit();
    if (!result) throw new Error(`Lighthouse returned nothing for ${pathname}`);
    const failure = result.lhr.runtimeError;
    if (!failure) return result.lhr;
    if (attempt < 3 && /run Lighthouse again/i.test(failure.message)) {
      log(`    lighthouse ${pathname}: ${failure.code ?? 'runtime error'}, running it again`);
      continue;
    }
    throw new Error(`Lighthouse failed on ${pathname}: ${failure.message}`);
  }
}

/**
 * Lighthouse (default config: mobile form factor, simulated slow-4G throttling) in Debian's
 * chromium against `origin`: the full audit `runs` times on each of `pages`, and only the network
 * requests on `jsOnlyPages` to measure their first-load JavaScript.
 */
export async function runLighthouse(opts: {
  origin: string;
  chromePath: string;
  pages: string[];
  jsOnlyPages: string[];
  runs: number;
  log: (line: string) => void;
}): Promise<{ pages: LighthousePage[]; firstLoadJs: FirstLoadJs[]; lighthouseVersion: string; chromeVersion: string }> {
  if (new URL(opts.origin).hostname !== '127.0.0.1') throw new Error('Lighthouse runs against loopback only');
  const chrome = await chromeLauncher.launch({
    chromePath: opts.chromePath,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  try {
    const pages: LighthousePage[] = [];
    const js: FirstLoadJs[] = [];
    let lighthouseVersion = '';
    let chromeVersion = '';
    for (const pathname of opts.pages) {
      const runs: Lhr[] = [];
      for (let i = 0; i < opts.runs; i++) {
        const lhr = await auditWithRetry(pathname, opts.log, () =>
          lighthouse(`${opts.origin}${pathname}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: [...CATEGORIES],
          }),
        );
        runs.push(lhr);
        lighthouseVersion = lhr.lighthouseVersion;
        chromeVersion = lhr.environment.hostUserAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? '';
        opts.log(`    lighthouse ${pathname} run ${i + 1}/${opts.runs}: performance ${score(lhr, 'performance')}`);
      }
      pages.push(summarize(pathname, runs));
      js.push(firstLoadJs(runs[0]!, pathname));
    }
    for (const pathname of opts.jsOnlyPages) {
      const lhr = await auditWithRetry(pathname, opts.log, () =>
        lighthouse(`${opts.origin}${pathname}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyAudits: ['network-requests'],
        }),
      );
      js.push(firstLoadJs(lhr, pathname));
      opts.log(`    first-load JS ${pathname}: ${js.at(-1)?.gzipKB} KB gzip`);
    }
    return { pages, firstLoadJs: js, lighthouseVersion, chromeVersion };
  } finally {
    chrome.kill();
  }
}
