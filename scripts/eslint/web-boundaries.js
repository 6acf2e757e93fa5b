// @ts-check
import { dirs } from './dirs.js';

/**
 * Web import boundaries (STYLE.md): imports flow shared → features → app, and a feature does not
 * reach into another feature's internals. Web features may use another feature's `api/` (its
 * public data layer) but not its components.
 */
const webFeatures = dirs('../../apps/web/src/features');

export const webBoundaries = webFeatures.map((feature) => ({
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
}));
