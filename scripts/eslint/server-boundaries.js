// @ts-check
import { dirs } from './dirs.js';

/**
 * Server import boundaries (STYLE.md): a module never imports another module's routes; lower layers
 * (lib, db/schema, shared) never import modules.
 */
const serverModules = dirs('../../apps/server/src/modules');

export const serverBoundaries = [
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
