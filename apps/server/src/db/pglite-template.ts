import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * A new PGlite data directory costs an initdb inside WebAssembly: 2–5 s, most of a first start.
 * `npm install` runs that initdb once into a template kept in node_modules' cache (see
 * docs/decisions/006-pglite-template.md); a new DATA_DIR then starts as a copy of it. The template is
 * an empty, cleanly closed cluster — migrations and the seed still run at start-up — keyed by the
 * PGlite version, so an upgrade of PGlite never reuses a cluster made by another version.
 */

const MARKER = 'skillhive-template.json';

function pgliteRoot(): string {
  // The package's entry point is dist/index.js; its root holds package.json.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the @electric-sql/pglite package directory');
    dir = parent;
  }
  return dir;
}

/** Where the template of the installed PGlite version lives (or would live). */
export function pgliteTemplateDir(): string {
  const root = pgliteRoot();
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  // root is <node_modules>/@electric-sql/pglite: the cache sits in that node_modules.
  const nodeModules = path.resolve(root, '..', '..');
  return path.join(nodeModules, '.cache', 'skillhive', `pglite-${version}`);
}

function isTemplate(dir: string): boolean {
  return existsSync(path.join(dir, MARKER)) && existsSync(path.join(dir, 'PG_VERSION'));
}

/**
 * Makes the template if it is missing. Built in a temporary directory and renamed into place, so a
 * crash or a second install running at the same time never leaves a half-made template behind.
 */
export async function ensurePgliteTemplate(dir = pgliteTemplateDir()): Promise<{ dir: string; created: boolean }> {
  if (isTemplate(dir)) return { dir, created: false };
  mkdirSync(path.dirname(dir), { recursive: true });
  const work = mkdtempSync(`${dir}.tmp-`);
  try {
    const client = await PGlite.create(work);
    await client.query('select 1');
    await client.close();
    writeFileSync(path.join(work, MARKER), JSON.stringify({ pglite: path.basename(dir), createdAt: new Date() }));
    if (isTemplate(dir)) return { dir, created: false };
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    return { dir, created: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Fills an empty `pgDir` from the template: copied beside it, then renamed into place, so an
 * interrupted copy never leaves a partial cluster. Returns false — leaving PGlite to run its own
 * initdb — when there is no template or the directory already holds anything.
 */
export function seedDataDirFromTemplate(pgDir: string, templateDir = pgliteTemplateDir()): boolean {
  if (!isTemplate(templateDir)) return false;
  if (readdirSync(pgDir).length > 0) return false;
  const work = mkdtempSync(`${pgDir}.tmp-`);
  try {
    cpSync(templateDir, work, { recursive: true, filter: (source) => path.basename(source) !== MARKER });
    rmdirSync(pgDir);
    renameSync(work, pgDir);
    return true;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
