import path from 'node:path';
import { openDatabase } from './client.ts';
import { importDatabase, PortableError } from './portable.ts';
import { loadDotEnvFile, loadEnv } from '../env.ts';
import { createStorage } from '../modules/uploads/create-storage.ts';

/**
 * npm run db:import -- <directory>: an export (npm run db:export) into an EMPTY database
 * (DATABASE_URL, or the embedded one in DATA_DIR), migrated first, and its images into S3_* or
 * UPLOAD_DIR.
 */
const source = process.argv[2];
if (!source) {
  console.error('Usage: npm run db:import -- <export-directory>');
  process.exit(2);
}
loadDotEnvFile();
const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
try {
  await database.migrate();
  const manifest = await importDatabase(database.db, createStorage(env), path.resolve(source));
  for (const table of manifest.tables) console.log(`  ${table.name.padEnd(24)} ${table.rows}`);
  console.log(`Imported ${manifest.tables.length} tables and ${manifest.images.count} images (${database.kind}).`);
} catch (error) {
  // A refused export or import is the operator's to fix: the message, without a stack.
  if (!(error instanceof PortableError)) throw error;
  console.error(`db:import refused: ${error.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
