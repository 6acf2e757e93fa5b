import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { hydrate } from '@tanstack/react-query';
import './index.css';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter, hydrateAppRouter } from './app/router.tsx';
import { readServerState } from './app/server-state.ts';
import { queryClient } from './lib/query-client.ts';
import { applyStoredTheme } from './lib/theme.ts';

applyStoredTheme();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

const serverState = readServerState(document);
if (serverState) {
  // A public page the server rendered (decision 030): the browser takes over the same markup,
  // from the same loader data and query cache, without rendering it again.
  hydrate(queryClient, serverState.queries);
  // The page is already painted (its code starts after the first paint, decision 049): hydrating
  // in a transition lets React yield to the browser every few milliseconds instead of holding the
  // main thread for the whole tree, so a tap meanwhile is answered and no long task is added.
  void hydrateAppRouter(serverState.router).then((router) => {
    startTransition(() => {
      hydrateRoot(
        container,
        <StrictMode>
          <AppProviders>
            <RouterProvider router={router} />
          </AppProviders>
        </StrictMode>,
      );
    });
  });
} else {
  // Until the first page's code and data are in, the router shows its HydrateFallback (the progress
  // bar); then the page, in one render (decisions 008, 020 and 024).
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={createAppRouter()} />
      </AppProviders>
    </StrictMode>,
  );
}
