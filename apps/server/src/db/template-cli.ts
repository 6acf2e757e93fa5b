import { ensurePgliteTemplate } from './pglite-template.ts';

/**
 * npm run db:template (run by `npm install`): makes the empty PGlite cluster that a new DATA_DIR
 * starts from. Never fails the install: without a template the first start runs initdb itself.
 */
const startedAt = performance.now();
try {
  const { dir, created } = await ensurePgliteTemplate();
  const ms = Math.round(performance.now() - startedAt);
  console.log(created ? `PGlite template made in ${ms} ms: ${dir}` : `PGlite template present: ${dir}`);
} catch (error) {
  console.warn(`PGlite template not made (the first start will run initdb itself): ${String(error)}`);
}
