// @ts-check
import { dirs } from './dirs.js';

/**
 * Server import boundaries (STYLE.md, decision 015), as allow-lists. Each module owns its tables:
 * they are declared in db/schema/<module>.ts and only that module imports the file. Another module
 * is reached only through its `*.service.ts` or `*.public.ts` files; every other file of a module
 * folder is its own, whatever the folder (a new module is covered without being listed here).
 * Lower layers (lib, db, shared) never import modules, but for the seed (db/seed*.ts) and the
 * export/import, which say why at their top, and the command-line entry points of db/ (like server.ts).
 */
const serverModules = dirs('../../apps/server/src/modules');

/**
 * The table files of db/schema/ each module may import (its own); a module not listed owns the file
 * named like it. `*`: the stats module is a read model over every table (decision 015).
 */
const TABLES_OF = {
  health: [],
  stats: '*',
};

/** @param {string} mod */
const tableRules = (mod) => {
  const own = TABLES_OF[/** @type {keyof typeof TABLES_OF} */ (mod)] ?? [mod];
  if (own === '*') return [];
  const message = `Module "${mod}" owns ${own.length ? own.map((t) => `db/schema/${t}.ts`).join(', ') : 'no table'}: call the owning module's service (or join through its classJoin/userJoin) instead (decision 015).`;
  return [
    { group: ['**/db/schema/**', ...own.map((t) => `!**/db/schema/${t}.ts`)], message },
    { group: ['**/db/client.ts'], importNames: ['schema'], message },
  ];
};

/**
 * A join helper (classJoin, userJoin) lends another module's table for reading only: its `.table`
 * may be named only as the table of a join or a from, so nothing writes through it (decision 015).
 */
const JOIN_HELPER_WRITES = [
  {
    selector: 'TSEnumDeclaration',
    message: 'Use an `as const` object: Node runs TypeScript by erasing types only.',
  },
  {
    selector:
      'MemberExpression[object.name=/Join$/][property.name="table"]:not(CallExpression[callee.property.name=/^(from|innerJoin|leftJoin|rightJoin|fullJoin)$/] > MemberExpression.arguments)',
    message: 'A join helper lends its table for joins only: name `.table` in a join or a from, never write through it.',
  },
];

export const serverBoundaries = [
  ...serverModules.map((mod) => ({
    files: [`apps/server/src/modules/${mod}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...serverModules
              .filter((other) => other !== mod)
              .map((other) => ({
                // Relative imports name the other module's folder without `modules/` (../users/…).
                group: [`**/${other}/**`, `!**/${other}/*.service.ts`, `!**/${other}/*.public.ts`],
                message: `Module "${mod}" may reach "${other}" only through its *.service.ts or *.public.ts files (decision 015).`,
              })),
            ...tableRules(mod),
          ],
        },
      ],
      'no-restricted-syntax': ['error', ...JOIN_HELPER_WRITES],
    },
  })),
  {
    files: ['apps/server/src/lib/**/*.ts', 'apps/server/src/db/**/*.ts', 'packages/shared/src/**/*.ts'],
    ignores: ['apps/server/src/db/seed*.ts', 'apps/server/src/db/portable.ts', 'apps/server/src/db/*-cli.ts'],
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
