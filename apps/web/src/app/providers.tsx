import { useEffect, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Outlet, ScrollRestoration } from 'react-router';
import { queryClient } from '../lib/query-client.ts';
import { AuthProvider } from '../features/auth/components/auth-provider.tsx';
import { DeferredToaster } from '../components/ui/deferred-toaster.tsx';

/**
 * Providers that need nothing from the router. The query cache is the app's one in the browser;
 * the server's render gives each request its own (entry-server.tsx, decision 030).
 */
export function AppProviders({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <QueryClientProvider client={client}>
      {children}
      <DeferredToaster />
      <MarkHydrated />
    </QueryClientProvider>
  );
}

/**
 * Marks the document once React has taken the page over: `data-hydrated="true"` on <html>, set
 * by the first commit in the browser (never on the server, where effects do not run). A page the
 * server renders starts its code only after its first paint (decision 049), so for a moment it is
 * visible but not yet the app's; the end-to-end harness waits for this mark after loading a
 * document (e2e/fixtures/hydrated.ts). It is part of the tree the server renders too: a component
 * only the browser had would shift every `useId` after it, and the server's ids (an
 * `aria-controls`, a label's `for`) would no longer match the browser's.
 */
function MarkHydrated() {
  useEffect(() => {
    document.documentElement.dataset['hydrated'] = 'true';
  }, []);
  return null;
}

/**
 * The root route's component: auth needs the router (navigation on 401), so it lives here, and
 * React Router's scroll restoration (a new page at the top or its #anchor, Back to where the
 * person was, `preventScrollReset` for filters; positions kept per history entry across a reload).
 */
export function RouterProviders() {
  return (
    <AuthProvider>
      <ScrollRestoration />
      <Outlet />
    </AuthProvider>
  );
}
