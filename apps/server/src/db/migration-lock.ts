import pg from 'pg';

/**
 * drizzle's PostgreSQL migrator takes no lock: instances starting together on a fresh database
 * each see no migration applied and run the same ones, and all but one fail ("already exists").
 * This runs `migrate` while holding a PostgreSQL advisory lock on a connection of its own, so
 * instances migrate one after another; the later ones find nothing left to do.
 * openPostgres in db/client.ts wraps its migrate with it (docs/OPERATIONS.md "Scale out").
 */
export const MIGRATION_LOCK_KEY = 727_431_001;

export async function withMigrationLock<T>(connectionString: string, migrate: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await migrate();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}
