import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePgliteTemplate, pgliteTemplateDir, seedDataDirFromTemplate } from '../src/db/pglite-template.ts';

const hasStrace = spawnSync('strace', ['-V']).status === 0;
const TEMPLATE_MODULE = new URL('../src/db/pglite-template.ts', import.meta.url).href;

/** The initdb-once template a new DATA_DIR starts from. Runs on PGlite only: it is about the embedded mode. */
const root = mkdtempSync(path.join(tmpdir(), 'skillhive-template-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('PGlite template', () => {
  const template = path.join(root, 'template');

  it('is made once, atomically, and reused', async () => {
    expect(await ensurePgliteTemplate(template)).toEqual({ dir: template, created: true });
    expect(existsSync(path.join(template, 'PG_VERSION'))).toBe(true);
    // No temporary directory is left beside it.
    expect(readdirSync(root)).toEqual(['template']);
    expect(await ensurePgliteTemplate(template)).toEqual({ dir: template, created: false });
  });

  it('gives an empty directory a working cluster of its own', async () => {
    const pgDir = path.join(root, 'data', 'pglite');
    mkdirSync(pgDir, { recursive: true });
    expect(seedDataDirFromTemplate(pgDir, template)).toBe(true);
    expect(readdirSync(path.dirname(pgDir))).toEqual(['pglite']);
    expect(existsSync(path.join(pgDir, 'skillhive-template.json'))).toBe(false);

    const client = await PGlite.create(pgDir);
    await client.exec('create table note (body text); insert into note values ($$kept$$)');
    await client.close();
    // The copy is independent of the template, and survives a reopen.
    const reopened = await PGlite.create(pgDir);
    expect((await reopened.query<{ body: string }>('select body from note')).rows).toEqual([{ body: 'kept' }]);
    await reopened.close();
    const fromTemplate = path.join(root, 'other');
    mkdirSync(fromTemplate);
    expect(seedDataDirFromTemplate(fromTemplate, template)).toBe(true);
    const other = await PGlite.create(fromTemplate);
    expect((await other.query(`select to_regclass('note') as t`)).rows).toEqual([{ t: null }]);
    await other.close();
  });

  // A power cut cannot be simulated here; what can be checked is that every file and directory of
  // the copy, and the directory that receives it, went through fsync() before the call returned
  // (decision 011). strace counts the system calls of a process that only makes the copy.
  it.skipIf(!hasStrace)('flushes every copied file and directory, and the directory holding it, to the disk', () => {
    const dataDir = path.join(root, 'traced');
    const pgDir = path.join(dataDir, 'pglite');
    mkdirSync(pgDir, { recursive: true });
    const trace = path.join(root, 'fsync.trace');
    const script = `import { seedDataDirFromTemplate } from ${JSON.stringify(TEMPLATE_MODULE)};
      if (!seedDataDirFromTemplate(${JSON.stringify(pgDir)}, ${JSON.stringify(template)})) process.exit(3);`;
    const run = spawnSync('strace', [
      '-f',
      '-e',
      'trace=fsync',
      '-o',
      trace,
      process.execPath,
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(run.status, run.stderr.toString()).toBe(0);
    const fsyncs = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => /\bfsync\(\d+\)\s+= 0$/.test(line)).length;
    const count = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce(
        (n, entry) => n + (entry.isDirectory() ? count(path.join(dir, entry.name)) : 1),
        1,
      );
    // Every file and directory of the copy, plus DATA_DIR and its parent.
    expect(fsyncs).toBeGreaterThanOrEqual(count(pgDir) + 2);
  });

  it('leaves a directory that holds anything, or a missing template, to PGlite', () => {
    const used = path.join(root, 'used');
    mkdirSync(used);
    writeFileSync(path.join(used, 'keep.txt'), 'mine');
    expect(seedDataDirFromTemplate(used, template)).toBe(false);
    expect(readdirSync(used)).toEqual(['keep.txt']);

    const empty = path.join(root, 'empty');
    mkdirSync(empty);
    expect(seedDataDirFromTemplate(empty, path.join(root, 'no-template'))).toBe(false);
    expect(readdirSync(empty)).toEqual([]);
  });

  it('is kept per PGlite version, in the node_modules that holds PGlite', () => {
    expect(pgliteTemplateDir()).toMatch(/node_modules\/\.cache\/skillhive\/pglite-\d+\.\d+\.\d+/);
  });
});
