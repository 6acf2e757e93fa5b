// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { noCycle } from './scripts/eslint/no-cycle.js';
import { serverBoundaries } from './scripts/eslint/server-boundaries.js';
import { webBoundaries } from './scripts/eslint/web-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      // The web app's server entry, built beside dist (decision 030).
      '**/dist-ssr/**',
      '**/data/**',
      'apps/server/src/db/migrations/**',
      'apps/server/test/generated/**',
      'apps/web/src/generated/**',
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
            {
              name: 'zod',
              allowTypeImports: true,
              message: 'Use the zod/mini schemas of @skillhive/shared/rules/* (one module per form).',
            },
          ],
          patterns: [
            {
              // packages/shared/README.md: rules/* ship to the browser (no classic Zod); contracts/*
              // are the classic Zod request/response schemas only the server runs.
              group: ['@skillhive/shared/contracts/*'],
              allowTypeImports: true,
              message:
                'Contracts are classic Zod: import their types only; values come from @skillhive/shared/rules/*.',
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
  ...serverBoundaries,
  ...webBoundaries,
  ...noCycle,
);
