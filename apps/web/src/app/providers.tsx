import type { ReactNode } from 'react';
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
    </QueryClientProvider>
  );
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
