import { openDatabase } from './client.ts';
import { loadDotEnvFile, loadEnv } from '../env.ts';

/** npm run db:migrate: applies committed migrations to DATABASE_URL, or the embedded database. */
loadDotEnvFile();
const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
try {
  await database.migrate();
  console.log(`Migrations applied (${database.kind}).`);
} finally {
  await database.close();
}
