import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePgliteTemplate, pgliteTemplateDir, seedDataDirFromTemplate } from '../src/db/pglite-template.ts';

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
