import { Redis } from 'ioredis';
import { buildApp } from './app.ts';
import { DataDirLockedError, openDatabase } from './db/client.ts';
import { revokeDemoAdmins, seedIfEmpty } from './db/seed.ts';
import { EnvError, loadEnv, resolveAuthSecret } from './env.ts';
import { createStorage } from './modules/uploads/create-storage.ts';

/** Starts SkillHive: validate settings, open and migrate the database, seed, listen, shut down cleanly. */
async function main() {
  const startedAt = performance.now();
  const env = loadEnv();
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
  const storage = createStorage(env);
  let redis: Redis | undefined;
  try {
    await database.migrate();
    // Demo accounts share a published password: none of them keeps admin rights that ADMIN_EMAILS
    // does not give (security issue §1), whenever they were seeded.
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
    redis = env.REDIS_URL ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false }) : undefined;
    const { app } = await buildApp({ env, database, storage, authSecret: resolveAuthSecret(env), redis });
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

    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => {
        app.log.error('shutdown took too long; exiting');
        process.exit(1);
      }, 10_000);
      force.unref();
      try {
        await app.close();
        await redis?.quit();
        await database.close();
        process.exit(0);
      } catch (error) {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      }
    };
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));

    await app.listen({ port: env.PORT, host: env.HOST });
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
