// @ts-check
import { dirs } from './dirs.js';

/**
 * Server import boundaries (STYLE.md, decision 015). Each module owns its tables: they are declared
 * in db/schema/<module>.ts, only that module imports the file, and other modules call its service
 * (or its public file: classes.public.ts, users/contact.ts, auth/credentials.ts, ...), never its
 * repository or its routes. Lower layers (lib, db/schema, shared) never import modules.
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
              .flatMap((other) => [
                {
                  // Relative imports name the other module's folder without `modules/` (../users/…).
                  group: [`**/${other}/*.routes.ts`],
                  message: `Module "${mod}" must not import the routes of "${other}"; routes are wired in app.ts.`,
                },
                {
                  group: [`**/${other}/*.repository.ts`],
                  message: `Module "${mod}" must not import the repository of "${other}": call its service (decision 015).`,
                },
              ]),
            ...tableRules(mod),
          ],
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
