import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import './index.css';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter } from './app/router.tsx';
import { applyStoredTheme } from './lib/theme.ts';

applyStoredTheme();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// Until the first page's code and data are in, the router shows its HydrateFallback (the progress
// bar); then the page, in one render (decisions 008, 020 and 024).
createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
);
