import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * The import rules of decision 015 fire: the project's own eslint.config.js lints code as if it
 * were a file of the tree (ESLint's Node API, lintText with a file path), and each forbidden
 * import is an error while the allowed way of doing the same is clean.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The rule ids of the errors ESLint reports for `code` as the file at `filePath` (from the repo root). */
async function errorsOf(code: string, filePath: string): Promise<{ ruleId: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  return (result?.messages ?? [])
    .filter((m) => m.severity === 2)
    .map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

describe('server modules own their tables', () => {
  const REVIEWS_FILE = 'apps/server/src/modules/reviews/lint-probe.ts';

  it("fails on another module's repository", async () => {
    const errors = await errorsOf("export { findUserById } from '../users/users.repository.ts';\n", REVIEWS_FILE);
    expect(errors).toEqual([
      expect.objectContaining({ ruleId: 'no-restricted-imports', message: expect.stringContaining('users') }),
    ]);
  });

  it("fails on another module's table file and on the whole schema", async () => {
    expect(await errorsOf("export { classes } from '../../db/schema/classes.ts';\n", REVIEWS_FILE)).toEqual([
      expect.objectContaining({ ruleId: 'no-restricted-imports', message: expect.stringContaining('decision 015') }),
    ]);
    expect(await errorsOf("export { schema } from '../../db/client.ts';\n", REVIEWS_FILE)).toEqual([
      expect.objectContaining({ ruleId: 'no-restricted-imports' }),
    ]);
  });

  it("allows its own table, another module's service and public files", async () => {
    const code = [
      "export { reviews } from '../../db/schema/reviews.ts';",
      "export { classJoin } from '../classes/classes.public.ts';",
      "export { getUserByEmail } from '../users/users.service.ts';",
      "export type { Db } from '../../db/client.ts';",
      '',
    ].join('\n');
    expect(await errorsOf(code, REVIEWS_FILE)).toEqual([]);
  });

  it('fails on any file of another module but its *.service.ts and *.public.ts (an allow-list)', async () => {
    for (const target of ['../uploads/image-processing.ts', '../classes/classes.routes.ts', '../auth/password.ts']) {
      expect(await errorsOf(`export * from '${target}';\n`, REVIEWS_FILE), target).toEqual([
        expect.objectContaining({ ruleId: 'no-restricted-imports', message: expect.stringContaining('*.public.ts') }),
      ]);
    }
  });

  it('fails on a write through a join helper, and allows joining with it', async () => {
    const prelude = [
      "import type { Db } from '../../db/client.ts';",
      "import { classJoin } from '../classes/classes.public.ts';",
      'declare const db: Db;',
      '',
    ].join('\n');
    const writes = [
      'export const w = db.insert(classJoin.table).values({} as never);\n',
      'export const lent = classJoin.table;\nexport { db };\n',
    ];
    for (const write of writes) {
      expect(await errorsOf(prelude + write, REVIEWS_FILE), write).toEqual([
        expect.objectContaining({ ruleId: 'no-restricted-syntax', message: expect.stringContaining('join helper') }),
      ]);
    }
    const join = 'export const r = db.select().from(classJoin.table).innerJoin(classJoin.table, undefined as never);\n';
    expect(await errorsOf(prelude + join, REVIEWS_FILE)).toEqual([]);
  });

  it('keeps db/ below the modules, but for the seed and the export/import', async () => {
    const code = "export { pendingEnrollmentOf } from '../modules/enrollments/enrollments.service.ts';\n";
    expect(await errorsOf(code, 'apps/server/src/db/lint-probe.ts')).toEqual([
      expect.objectContaining({ ruleId: 'no-restricted-imports', message: expect.stringContaining('Lower layers') }),
    ]);
    expect(await errorsOf(code, 'apps/server/src/db/seed.ts')).toEqual([]);
    expect(await errorsOf(code, 'apps/server/src/db/seed-fixtures.ts')).toEqual([]);
  });

  it('lets the stats read model read every table', async () => {
    expect(
      await errorsOf("export { schema } from '../../db/client.ts';\n", 'apps/server/src/modules/stats/lint-probe.ts'),
    ).toEqual([]);
  });
});

describe('web components do not import features', () => {
  it('fails on components → features', async () => {
    const errors = await errorsOf(
      "export { useSession } from '../../features/auth/api/get-session.ts';\n",
      'apps/web/src/components/layout/lint-probe.ts',
    );
    expect(errors).toEqual([expect.objectContaining({ ruleId: 'no-restricted-imports' })]);
  });
});

describe('web features reach another feature only through its api/ folder and top-level files', () => {
  const PROBE = 'apps/web/src/features/users/components/lint-probe.ts';

  it('fails on any other folder of another feature: its components, hooks or a folder the message does not name', async () => {
    for (const target of [
      '../../auth/components/sign-in-page.tsx',
      '../../auth/hooks/use-anything.ts',
      '../../auth/lib/anything.ts',
    ]) {
      expect(await errorsOf(`export * from '${target}';\n`, PROBE), target).toEqual([
        expect.objectContaining({ ruleId: 'no-restricted-imports', message: expect.stringContaining('api/ folder') }),
      ]);
    }
  });

  it('allows its api/ folder and its top-level files', async () => {
    const code = ["export * from '../../auth/api/get-session.ts';", "export * from '../../auth/auth-context.ts';", ''];
    expect(await errorsOf(code.join('\n'), PROBE)).toEqual([]);
  });
});

describe('no import cycles', () => {
  const FIRST = 'apps/server/test/fixtures/lint-cycle/first.ts';

  it('fails on a cycle (fixtures/lint-cycle: first.ts ↔ second.ts, without its disable comment)', async () => {
    const source = readFileSync(`${ROOT}${FIRST}`, 'utf8');
    const withoutDisable = source.replace(/^\/\* eslint-disable import-x\/no-cycle[^\n]*\n/, '');
    expect(withoutDisable).not.toBe(source);
    expect(await errorsOf(withoutDisable, FIRST)).toEqual([expect.objectContaining({ ruleId: 'import-x/no-cycle' })]);
  });

  it('passes a file that imports into the cycle without closing one', async () => {
    expect(
      await errorsOf("export { second } from './second.ts';\n", 'apps/server/test/fixtures/lint-cycle/third.ts'),
    ).toEqual([]);
  });
});
