import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { openPglite } from './db/client.ts';
import { loadEnv } from './env.ts';
import { createLocalStorage } from './modules/uploads/storage.public.ts';

/** The origin the published document names as its server (an integrator replaces it with theirs). */
export const PUBLISHED_SERVER_URL = 'http://localhost:3000';

/**
 * The OpenAPI document as the API publishes it at /api/docs/json, built from the real app (on an
 * empty in-memory PGlite, never queried) with fixed settings, so the same code always gives the
 * same document: the test gateway's routes are in it, Stripe's webhook is not (decision 012).
 */
export async function buildPublishedOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-openapi-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: PUBLISHED_SERVER_URL,
    LOG_LEVEL: 'silent',
    PAYMENTS_GATEWAY: 'test',
  });
  const database = await openPglite();
  try {
    const { app } = await buildApp({
      env,
      database,
      storage: createLocalStorage(env.uploadDir),
      authSecret: 'openapi-document-only-secret-never-used-for-sessions',
      logger: false,
    });
    await app.ready();
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
