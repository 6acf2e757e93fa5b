import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The web may take values only from `rules/*` (decision 005: no classic Zod in the browser);
 * `contracts/*` give it types. The rule lives in the repository's eslint.config.js; a snippet is
 * linted as if it were a web file.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

async function importErrors(code: string, file = 'apps/web/src/features/classes/components/thing.tsx') {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

// The first lint loads the typed ESLint configuration (a TypeScript program): seconds on a busy machine.
describe('what the web imports from @skillhive/shared', { timeout: 30_000 }, () => {
  it('refuses a value from a contract (classic Zod)', async () => {
    const errors = await importErrors(
      "import { ClassItem } from '@skillhive/shared/contracts/classes';\nexport const x = ClassItem;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/Contracts are classic Zod/)]);
  });

  it('refuses classic Zod itself', async () => {
    const errors = await importErrors("import { z } from 'zod';\nexport const x = z;\n");
    expect(errors).toEqual([expect.stringMatching(/zod\/mini schemas of @skillhive\/shared\/rules/)]);
  });

  it("takes a contract's types and the rules' values", async () => {
    const errors = await importErrors(
      [
        "import type { ClassItem } from '@skillhive/shared/contracts/classes';",
        "import { CreateClassBody } from '@skillhive/shared/rules/class-form';",
        "import { formatPrice } from '@skillhive/shared/rules/money';",
        'export const x: [ClassItem | null, unknown, unknown] = [null, CreateClassBody, formatPrice];',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('leaves the server free to run the contracts', async () => {
    const errors = await importErrors(
      "import { ClassItem } from '@skillhive/shared/contracts/classes';\nexport const x = ClassItem;\n",
      'apps/server/src/modules/classes/thing.ts',
    );
    expect(errors).toEqual([]);
  });
});
