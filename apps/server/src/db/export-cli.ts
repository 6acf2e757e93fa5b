import path from 'node:path';
import { openDatabase } from './client.ts';
import { exportDatabase, PortableError } from './portable.ts';
import { loadDotEnvFile, loadEnv } from '../env.ts';
import { createStorage } from '../modules/uploads/create-storage.ts';

/**
 * npm run db:export -- <directory>: the database (DATABASE_URL, or the embedded one in DATA_DIR,
 * whose server must be stopped) and its images (S3_* or UPLOAD_DIR) into a new directory.
 */
const target = process.argv[2];
if (!target) {
  console.error('Usage: npm run db:export -- <new-directory>');
  process.exit(2);
}
loadDotEnvFile();
const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
try {
  const dir = path.resolve(target);
  const manifest = await exportDatabase(database.db, createStorage(env), dir, database.kind);
  for (const table of manifest.tables) console.log(`  ${table.name.padEnd(24)} ${table.rows}`);
  console.log(`Exported ${manifest.tables.length} tables and ${manifest.images.count} images to ${dir}`);
  if (manifest.images.missing.length > 0) {
    console.warn(`Missing from storage (not exported): ${manifest.images.missing.join(', ')}`);
  }
} catch (error) {
  // A refused export or import is the operator's to fix: the message, without a stack.
  if (!(error instanceof PortableError)) throw error;
  console.error(`db:export refused: ${error.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
