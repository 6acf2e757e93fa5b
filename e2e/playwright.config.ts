import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests drive the built web app, served by the built server (what `npm start` runs) on
 * a fresh embedded database seeded with demo data, in Debian's Chromium.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;
// A fresh database per run: tests may sign up, apply and log in without tripping over old data.
const DATA_DIR = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'skillhive-e2e-'));
// Workers load this file again; they inherit the directory instead of creating another.
process.env.E2E_DATA_DIR = DATA_DIR;
// The role accounts' signed-in states (setup/roles.setup.ts, fixtures/roles.ts), one directory per run.
process.env.E2E_STATE_DIR ??= mkdtempSync(path.join(tmpdir(), 'skillhive-e2e-state-'));
// E2E_DATABASE_URL runs the same suite on a PostgreSQL server (CI's second pass): an empty
// database of its own, which the server migrates and seeds at start-up.
const DATABASE_URL = process.env.E2E_DATABASE_URL ?? '';
// The web app and the server bundle, built as `npm install` builds them: the suite drives what
// `npm start` serves.
const BUILD = process.env.E2E_SKIP_BUILD === '1' ? '' : 'npm run build --prefix .. --silent && ';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: './tests',
  // Overridable so two runs on one machine do not clean up each other's artifacts.
  outputDir: process.env.E2E_OUTPUT_DIR ?? './test-results',
  // Every spec arranges its own data (fixtures/arrange.ts), so tests run in any order, two at a time.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  forbidOnly: !!process.env.CI,
  // CI retries a failed test once so that one flake does not stop a landing; the retry summary
  // names every test that needed it, and such a test is fixed, not retried forever.
  retries: process.env.CI ? 1 : 0,
  // The longest journeys (every admin route as a teacher, a waitlist offer claimed and paid) take
  // 30–40 s on a quiet two-core machine and up to 50 s while CI's other suites share it.
  timeout: 90_000,
  expect: { timeout: 8_000 },
  reporter: [
    ['list'],
    ['html', { outputFolder: process.env.E2E_REPORT_DIR ?? './playwright-report', open: 'never' }],
    ['./reporters/retry-summary.ts'],
  ],
  use: {
    baseURL: BASE_URL,
    // A trace records every step's screenshots and DOM: in CI only a test's retry records one (its
    // first failure is in the report with its screenshot), which keeps Chromium's CPU for the tests.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    // The role accounts and their signed-in states, made through the API before any spec runs.
    { name: 'setup', testDir: './setup', testMatch: /\.setup\.ts$/ },
    {
      name: 'chromium',
      dependencies: ['setup'],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    command: `${BUILD}node ../apps/server/dist/server.js`,
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE_URL,
      DATA_DIR,
      DATABASE_URL,
      SEED: 'true',
      LOG_LEVEL: 'warn',
      // The journeys read the catalogue right after changing it (the shared 1 s cache is tested by
      // apps/server/test/catalogue-cache.test.ts).
      CATALOGUE_CACHE_TTL_SECONDS: '0',
      // Every spec signs its people up and in through the API from one address, two at a time:
      // the per-address limit on auth calls is tested by the server suite (rate-limit.test.ts).
      RATE_LIMIT_AUTH_PER_MINUTE: '100000',
      // The role accounts are shared by every test, and each page load takes a token: the per-user
      // limit on tokens is tested by the server suite (api-tokens.test.ts).
      RATE_LIMIT_TOKENS_PER_MINUTE: '100000',
    },
  },
});
