/**
 * What the web tests know of the real servers `real-server.global-setup.ts` starts (their
 * address, the admin's sign-in and the accepted classes seeded there), handed over with
 * vitest's `provide`/`inject`.
 */

/** The accepted classes seeded on each server: title → price in cents. */
export const CATALOGUE = {
  'Watercolour basics': 2499,
  'Ink drawing': 2499,
  'Withdrawn class': 2499,
  'Ann’s pottery': 1999,
  'Ben’s bread': 1999,
} as const;

export type CatalogueTitle = keyof typeof CATALOGUE;

export interface RealServer {
  /** http://127.0.0.1:<port>, also the server's PUBLIC_URL. */
  baseUrl: string;
  /** An admin (listed in ADMIN_EMAILS, verified): reads the development mailbox. */
  admin: { email: string; password: string };
  /** The teacher of every catalogue class (their earnings, decision 039). */
  teacher: { email: string; password: string };
  /** Class id of each catalogue title. */
  classes: Record<CatalogueTitle, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The default configuration: the test gateway takes cards. */
    realServer: RealServer;
    /** Configured for Stripe (its API is the server suites' local stand-in). */
    stripeServer: RealServer;
  }
}
