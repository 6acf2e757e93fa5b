import type { AuthClient } from './auth-client.ts';

let loading: Promise<AuthClient> | null = null;

/**
 * better-auth's browser client, fetched on first use (decision 005): reading the session is one
 * GET that TanStack Query makes, so only signing in, up or out needs the library. Forms call it
 * on focus so the chunk is usually there before the user presses the button.
 */
export function loadAuthClient(): Promise<AuthClient> {
  loading ??= import('./auth-client.ts').then(
    (module) => module.authClient,
    (error: unknown) => {
      loading = null; // a failed download is retried on the next call
      throw error;
    },
  );
  return loading;
}

/** Starts the download early; errors are left for the real call to report. */
export function preloadAuthClient(): void {
  loadAuthClient().catch(() => undefined);
}
