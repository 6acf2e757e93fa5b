import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that never reach a PostgreSQL server: unit tests of pure code, the lint rules, and the
 * embedded database's own suites. The PostgreSQL pass (TEST_DATABASE_URL, `npm run test:postgres`)
 * leaves them out, since they ran in the PGlite pass and would run the same way again.
 */
const DATABASE_INDEPENDENT = [
  'src/**/*.test.ts',
  'test/lint-boundaries.test.ts',
  'test/embedded.test.ts',
  'test/pglite-template.test.ts',
  'test/pglite-faults.test.ts',
  'test/data-dir-lock.test.ts',
  'test/shutdown.test.ts',
];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? DATABASE_INDEPENDENT : [])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
