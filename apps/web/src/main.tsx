import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { AppProviders } from './app/providers.tsx';
import { AppRouter } from './app/app-router.tsx';
import { AppRoutes, loadFirstPage, loadPage } from './app/router.tsx';
import { TopProgressBar } from './components/ui/top-progress-bar.tsx';
import { applyStoredTheme } from './lib/theme.ts';

applyStoredTheme();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const root = createRoot(container);

// The progress bar while the first page's code and data arrive; then the page, in one render.
root.render(<TopProgressBar active />);
void loadFirstPage().then(() =>
  root.render(
    <StrictMode>
      <AppProviders>
        <AppRouter onNavigate={loadPage}>
          <AppRoutes />
        </AppRouter>
      </AppProviders>
    </StrictMode>,
  ),
);
