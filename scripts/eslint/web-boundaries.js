// @ts-check
import { dirs } from './dirs.js';

/**
 * Web import boundaries (STYLE.md): imports flow shared → features → app, and a feature does not
 * reach into another feature's internals. Web features may use another feature's `api/` (its
 * public data layer) and its top-level files (auth/auth-context.ts), nothing in its other folders.
 */
const webFeatures = dirs('../../apps/web/src/features');

const featureBoundaries = webFeatures.map((feature) => ({
  files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...webFeatures
            .filter((other) => other !== feature)
            .map((other) => ({
              // Relative imports name the other feature's folder without `features/` (../../auth/…).
              // An allow-list: any folder of the other feature but api/ is its own.
              group: [`**/${other}/*/**`, `!**/${other}/api/**`],
              message: `Feature "${feature}" may use "${other}" only through its api/ folder and its top-level files, not its components, hooks or other folders.`,
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

/**
 * `components/` holds the building blocks every feature and page shares (ui/, layout/): they take
 * what they show as props and import no feature and no app module, so the dependency points one
 * way (the app passes the session into the layout, src/app/app-layout.tsx).
 */
const componentBoundaries = {
  files: ['apps/web/src/components/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/features/**'],
            message: 'components/ may not import features/: take what the component needs as props.',
          },
          {
            group: ['**/app/**'],
            message: 'components/ may not import app/ (imports flow components → features → app).',
          },
        ],
      },
    ],
  },
};

export const webBoundaries = [...featureBoundaries, componentBoundaries];
