import {
  closeSync,
  cpSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
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

/** Flushes one file or directory to the disk (a directory's entries: the names of what it holds). */
function fsyncPath(target: string): void {
  const fd = openSync(target, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Every file under `dir`, then every directory bottom-up, then `dir` itself, flushed to the disk. */
function fsyncTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) fsyncTree(child);
    else if (entry.isFile()) fsyncPath(child);
  }
  fsyncPath(dir);
}

/**
 * Fills an empty `pgDir` from the template: copied beside it, flushed to the disk (unless
 * `fsync: false`, for DB_EMBEDDED_FSYNC=false), then renamed into place, so an interrupted copy
 * never leaves a partial cluster and a power cut after start-up never loses the new one. Returns false — leaving PGlite to run its own
 * initdb — when there is no template or the directory already holds anything.
 */
export function seedDataDirFromTemplate(
  pgDir: string,
  templateDir = pgliteTemplateDir(),
  options: { fsync?: boolean } = {},
): boolean {
  if (!isTemplate(templateDir)) return false;
  if (readdirSync(pgDir).length > 0) return false;
  const work = mkdtempSync(`${pgDir}.tmp-`);
  try {
    cpSync(templateDir, work, { recursive: true, filter: (source) => path.basename(source) !== MARKER });
    // The copy is only written to the page cache: flushed before the rename that publishes it, and
    // the rename flushed in the parent, so a power cut after start-up never finds a cluster with
    // missing or empty files (decision 011; PGlite's own fsync covers only what it writes later).
    const fsync = options.fsync ?? true;
    if (fsync) fsyncTree(work);
    rmdirSync(pgDir);
    renameSync(work, pgDir);
    // DATA_DIR (which holds the new name) and its parent, which holds DATA_DIR if it is new too.
    if (fsync) for (const dir of [path.dirname(pgDir), path.dirname(path.dirname(pgDir))]) fsyncPath(dir);
    return true;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
