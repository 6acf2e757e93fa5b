import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { useAuth } from '../../features/auth/auth-context.ts';
import { TopProgressBar } from '../ui/top-progress-bar.tsx';
import { Footer } from './footer.tsx';
import { Navbar } from './navbar.tsx';

/** Navbar, page content, footer (spec §2); the root is at most screen-xl wide. */
export function MainLayout() {
  const { loading, roleLoading } = useAuth();
  const navigation = useNavigation();
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <TopProgressBar active={loading || roleLoading || navigation.state === 'loading'} />
      <Navbar />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-screen-xl flex-1 px-4 py-8 outline-none sm:px-6">
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
