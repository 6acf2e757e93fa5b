// @ts-check
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/**
 * No import cycles in our own code (decision 015): a cycle means two files, or two modules, cannot
 * be understood or changed one without the other. Type-only imports are erased at run time and do
 * not count; packages in node_modules are not followed. Imports carry their extension (`.ts`,
 * `.tsx`), so the plain Node resolver finds every file.
 */
export const noCycle = [
  {
    files: [
      'apps/server/src/**/*.ts',
      'apps/server/test/**/*.ts',
      'apps/web/src/**/*.{ts,tsx}',
      'packages/shared/src/**/*.ts',
    ],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
];
