import { openDatabase } from './client.ts';
import { seedIfEmpty } from './seed.ts';
import { loadDotEnvFile, loadEnv } from '../env.ts';
import { createStorage } from '../modules/uploads/create-storage.ts';

/** npm run db:seed: demo data into an empty database (migrating it first). */
loadDotEnvFile();
const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
try {
  await database.migrate();
  const result = await seedIfEmpty(database.db, createStorage(env), env.ADMIN_EMAILS);
  if (result) {
    console.log(`Demo data loaded. Password for every demo login: ${result.password}`);
    for (const login of result.logins) console.log(`  ${login.role.padEnd(8)} ${login.email}`);
  } else {
    console.log('The database already has users; nothing seeded.');
  }
} finally {
  await database.close();
}
