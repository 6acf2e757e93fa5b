import { spawnSync } from 'node:child_process';
import pg from 'pg';

/**
 * npm run test:postgres: the second pass of `npm test`, on a PostgreSQL server instead of embedded
 * PGlite. It runs what the two databases can disagree on: the server suite's database files (its
 * races, locks and SQL; vitest.config.ts leaves out the files that never touch a database server)
 * and the end-to-end journeys tagged @postgres (money, moderation, catalogue) against a server
 * started on a database of their own. Everything else ran once on PGlite.
 *
 * Needs a PostgreSQL server at TEST_PG_URL (default postgres://postgres@127.0.0.1:5432, trust
 * authentication); each server test file makes and drops a database of its own from a migrated
 * template, and the end-to-end server gets a new empty `skillhive_e2e`.
 */
const server = new URL(process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432');
const at = (database: string) => Object.assign(new URL(server), { pathname: `/${database}` }).toString();

const admin = new pg.Client({ connectionString: at('postgres') });
await admin.connect();
await admin.query('drop database if exists skillhive_e2e with (force)');
await admin.query('create database skillhive_e2e');
await admin.end();

function run(label: string, args: string[], env: Record<string, string>): void {
  console.log(`== ${label}`);
  const result = spawnSync('npm', args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('server suite on PostgreSQL', ['test', '-w', '@skillhive/server'], { TEST_DATABASE_URL: at('postgres') });
run('end-to-end journeys tagged @postgres', ['test', '-w', '@skillhive/e2e', '--', '--grep', '@postgres'], {
  E2E_DATABASE_URL: at('skillhive_e2e'),
});
