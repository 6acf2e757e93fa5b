import { useRef, type ReactNode } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { TopProgressBar } from '../ui/top-progress-bar.tsx';
import { Footer } from './footer.tsx';
import type { LayoutSession } from './layout-session.ts';
import { Navbar } from './navbar.tsx';
import { RedirectNotice } from './redirect-notice.tsx';
import { OfflineBanner } from './offline-banner.tsx';
import { useFocusOnNavigate } from './use-focus-on-navigate.ts';

/**
 * Navbar, page content, footer (spec §2); the root is at most screen-xl wide. `navbarExtra` is
 * what the app adds to the navbar beside the cart (the notification bell, decision 047).
 */
export function MainLayout({ session, navbarExtra }: { session: LayoutSession; navbarExtra?: ReactNode }) {
  const navigationPending = useNavigation().state !== 'idle';
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigate(main);
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <TopProgressBar active={session.loading || session.roleLoading || navigationPending} />
      <Navbar session={session} extra={navbarExtra} />
      <OfflineBanner />
      <main
        ref={main}
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-screen-xl flex-1 px-4 py-8 outline-none sm:px-6"
      >
        <RedirectNotice />
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
