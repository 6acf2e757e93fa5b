import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The web's import boundaries fire (scripts/eslint/web-boundaries.js, run with the repository's
 * own eslint.config.js): a file is linted as if it lived at the given path.
 */
// Vitest runs in apps/web (its config's folder), whichever way it is started.
const root = path.resolve(process.cwd(), '../..');
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('web import boundaries', () => {
  it('refuse a components → features import', async () => {
    const errors = await boundaryErrors(
      'apps/web/src/components/layout/navbar.tsx',
      "import { useAuth } from '../../features/auth/auth-context.ts';\nexport const x = useAuth;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/components\/ may not import features\//)]);
  });

  it('refuse a components → app import', async () => {
    const errors = await boundaryErrors(
      'apps/web/src/components/ui/thing.tsx',
      "import { paths } from '../../app/router.tsx';\nexport const x = paths;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/components\/ may not import app\//)]);
  });

  it("refuse a feature reaching into another feature's components", async () => {
    const errors = await boundaryErrors(
      'apps/web/src/features/classes/components/thing.tsx',
      "import { LoginForm } from '../../auth/components/login-form.tsx';\nexport const x = LoginForm;\n",
    );
    expect(errors).toEqual([expect.stringMatching(/only through its api\/ folder/)]);
  });

  it('allow components to use components, config and lib', async () => {
    const errors = await boundaryErrors(
      'apps/web/src/components/layout/navbar.tsx',
      [
        "import { BrandMark } from './brand-logo.tsx';",
        "import { paths } from '../../config/paths.ts';",
        "import { errorMessage } from '../../lib/api-client.ts';",
        'export const x = [BrandMark, paths, errorMessage];',
        '',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('hold for the components as they are', async () => {
    const results = await eslint.lintFiles([path.join(root, 'apps/web/src/components')]);
    const errors = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => `${r.filePath}: ${m.message}`),
    );
    expect(errors).toEqual([]);
  });
});
