// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const dirs = (path) => {
  try {
    return readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
};

/**
 * Import boundaries (STYLE.md): imports flow shared → features → app, and a feature does not
 * reach into another feature's internals. Web features may use another feature's `api/` (its
 * public data layer) but not its components; server modules never import another module's routes;
 * lower layers (lib, db, shared) never import features.
 */
const webFeatures = dirs('./apps/web/src/features');
const serverModules = dirs('./apps/server/src/modules');
const boundaryConfigs = [
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...webFeatures
              .filter((other) => other !== feature)
              .map((other) => ({
                group: [`**/features/${other}/components/**`, `**/features/${other}/hooks/**`],
                message: `Feature "${feature}" may use "${other}" only through its api/ folder.`,
              })),
            {
              group: ['**/app/**', '!**/app-*'],
              message: 'Features must not import from app/ (imports flow features → app).',
            },
          ],
        },
      ],
    },
  })),
  ...serverModules.map((mod) => ({
    files: [`apps/server/src/modules/${mod}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: serverModules
            .filter((other) => other !== mod)
            .map((other) => ({
              group: [`**/modules/${other}/*.routes.ts`],
              message: `Module "${mod}" must not import the routes of "${other}"; routes are wired in app.ts.`,
            })),
        },
      ],
    },
  })),
  {
    files: ['apps/server/src/lib/**/*.ts', 'apps/server/src/db/schema/**/*.ts', 'packages/shared/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/modules/**', '@skillhive/server*', '**/apps/**'],
              message: 'Lower layers must not depend on features.',
            },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/data/**',
      'apps/server/src/db/migrations/**',
      'apps/server/test/generated/**',
      'e2e/test-results/**',
      'e2e/artifacts/**',
      'e2e/playwright-report/**',
      'bench/results/**',
      '.ci/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSEnumDeclaration',
          message: 'Use an `as const` object: Node runs TypeScript by erasing types only.',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // First-load JavaScript (decision 005): web code ships no classic Zod and loads better-auth's
    // client on first use. Types may come from anywhere.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', allowTypeImports: true, message: 'Use the zod/mini schemas of @skillhive/shared/forms.' },
            {
              name: '@skillhive/shared',
              allowTypeImports: true,
              message: 'Import a Zod-free module: constants, money, cards or forms.',
            },
          ],
          patterns: [
            {
              group: [
                '@skillhive/shared/*',
                '!@skillhive/shared/constants',
                '!@skillhive/shared/money',
                '!@skillhive/shared/cards',
                '!@skillhive/shared/forms',
              ],
              allowTypeImports: true,
              message:
                'This shared module defines classic Zod schemas: import its types only, or use constants, money, cards or forms.',
            },
            {
              group: ['**/lib/auth-client.ts'],
              allowTypeImports: true,
              message: "Load better-auth's client with loadAuthClient() from lib/load-auth-client.ts.",
            },
          ],
        },
      ],
    },
  },
  {
    // Only env.ts reads the environment (STYLE.md).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/env.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings through env.ts.' },
      ],
    },
  },
  ...boundaryConfigs,
);
