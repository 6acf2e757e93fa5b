import type { Redis } from 'ioredis';
import { buildApp } from './app.ts';
import { DataDirLockedError, lockFileOf, openDatabase } from './db/client.ts';
import { revokeDemoAdmins, seedIfEmpty } from './db/seed.ts';
import { EnvError, loadDotEnvFile, loadEnv, resolveAuthSecret } from './env.ts';
import { createRedis } from './lib/redis.ts';
import { startStallWatchdog } from './lib/stall-watchdog.ts';
import type { Lifecycle } from './modules/health/lifecycle.ts';
import { createStorage } from './modules/uploads/create-storage.ts';

/** Exit code after an unrecoverable embedded-database failure: a supervisor should restart us. */
const EXIT_DATABASE_FAILED = 70;

/** Starts SkillHive: validate settings, open and migrate the database, seed, listen, shut down cleanly. */
async function main() {
  const startedAt = performance.now();
  if (!loadDotEnvFile()) console.log('No .env file: using the default settings (every one is listed in .env.example).');
  const env = loadEnv();
  const lifecycle: Lifecycle = { phase: 'running' };
  // Set once the database is open; onFatal may run before that (during migrations it already can).
  let releaseLock = () => {};
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.dataDir,
    postgres: {
      connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
      queryTimeoutMs: env.DB_QUERY_TIMEOUT_MS,
    },
    pglite: {
      durable: env.DB_EMBEDDED_FSYNC,
      waitTimeoutMs: env.DB_EMBEDDED_WAIT_MS,
      // A PANIC leaves PGlite unusable (every later query fails): say so, fail readiness, give up
      // the data-directory lock and exit so that a supervisor restarts a healthy process.
      onFatal: (error) => {
        lifecycle.phase = 'closing';
        console.error('The embedded database failed and cannot recover in this process; exiting.', error);
        releaseLock();
        setImmediate(() => process.exit(EXIT_DATABASE_FAILED));
      },
    },
  });
  releaseLock = () => database.releaseLock();
  const storage = createStorage(env);
  let redis: Redis | undefined;
  try {
    await database.migrate();
    // Demo accounts share a published password: none of them keeps admin rights that ADMIN_EMAILS
    // does not give (docs/SECURITY.md), whenever they were seeded.
    const demoted = await revokeDemoAdmins(database.db, env.ADMIN_EMAILS);
    if (demoted.length > 0) {
      console.warn(`Removed admin rights from demo accounts not in ADMIN_EMAILS: ${demoted.join(', ')}`);
    }
    // The demo seed (mostly image encoding on libuv's threads) overlaps building the app; the
    // server listens only once both are done.
    const seeding = env.seedDemoData ? seedIfEmpty(database.db, storage, env.ADMIN_EMAILS) : Promise.resolve(null);
    // Awaited below; the handler only stops a seed failure during buildApp from crashing the process
    // as an unhandled rejection before that.
    seeding.catch(() => {});
    redis = env.REDIS_URL
      ? createRedis(env.REDIS_URL, {
          connectTimeoutMs: env.REDIS_CONNECT_TIMEOUT_MS,
          commandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
          log: { info: (m) => console.log(m), warn: (m) => console.warn(m) },
        })
      : undefined;
    const { app } = await buildApp({ env, database, storage, authSecret: resolveAuthSecret(env), redis, lifecycle });
    const seeded = await seeding;
    if (seeded) {
      console.log('\nDemo data loaded. Sign in with any of these (password for all: %s):', seeded.password);
      for (const login of seeded.logins) console.log(`  ${login.role.padEnd(8)} ${login.email}`);
      console.log('');
    }
    if (env.seedDemoData && env.NODE_ENV === 'production') {
      app.log.warn(
        'SEED=true in production: demo accounts with a published password exist in this database. ' +
          'None of them is an admin unless ADMIN_EMAILS names it; delete them before real users arrive.',
      );
    }

    const shutdown = async (signal: string) => {
      if (lifecycle.phase !== 'running') return;
      // 1. /api/ready answers 503, so load balancers stop routing here.
      lifecycle.phase = 'draining';
      app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => {
        app.log.error({ timeoutMs: env.SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long; exiting');
        database.releaseLock();
        process.exit(1);
      }, env.SHUTDOWN_TIMEOUT_MS);
      force.unref();
      try {
        // 2. Stop listening; requests in flight finish, new ones get 503 + Connection: close.
        lifecycle.phase = 'closing';
        // A connection whose request finishes from now on stays open 1 s (not Fastify's 72 s) for a
        // follow-up request, which gets the 503; then it closes and app.close() can return.
        app.server.keepAliveTimeout = Math.min(app.server.keepAliveTimeout, 1_000);
        await app.close();
        // 3. Only then the database and Redis.
        await redis?.quit().catch(() => {});
        await database.close();
        process.exit(0);
      } catch (error) {
        app.log.error({ err: error }, 'error during shutdown');
        database.releaseLock();
        process.exit(1);
      }
    };
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));

    await app.listen({ port: env.PORT, host: env.HOST });
    if (env.STALL_EXIT_MS > 0) {
      startStallWatchdog({
        stallMs: env.STALL_EXIT_MS,
        lockFile: database.kind === 'pglite' ? lockFileOf(env.dataDir) : undefined,
      });
    }
    const ms = Math.round(performance.now() - startedAt);
    app.log.info(`SkillHive is ready at ${env.publicUrl} (${database.kind}, started in ${ms} ms)`);
  } catch (error) {
    await redis?.quit().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
}

main().catch((error: unknown) => {
  if (error instanceof EnvError || error instanceof DataDirLockedError) {
    console.error(`\n${error.message}\n`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
