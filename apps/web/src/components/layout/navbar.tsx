import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { paths } from '../../config/paths.ts';
import { BrandMark } from './brand-logo.tsx';
import type { LayoutSession } from './layout-session.ts';
import { ThemeToggle } from './theme-toggle.tsx';
import { UserMenu } from './user-menu.tsx';
import { useDismiss } from './use-dismiss.ts';

const NAV_LINKS = [
  { to: paths.home, label: 'Home', end: true },
  { to: paths.allClasses, label: 'All Classes', end: false },
  { to: paths.teach, label: 'Teach On the platform', end: false },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-field px-3 py-2 font-medium transition-colors hover:bg-base-200 ${
    isActive ? 'text-primary underline decoration-2 underline-offset-8' : ''
  }`;

export function Navbar({ session, extra }: { session: LayoutSession; extra?: ReactNode }) {
  const { user, loading } = session;
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setMenuOpen(false), []);
  useDismiss(menuOpen, close, container, trigger);

  return (
    <header className="sticky top-0 z-40 border-b border-base-300 bg-base-100/95 backdrop-blur">
      <nav aria-label="Main" className="navbar mx-auto max-w-screen-xl gap-2 px-3 sm:px-6">
        <div className="flex flex-1 items-center gap-1">
          <div ref={container} className="relative lg:hidden">
            <button
              ref={trigger}
              type="button"
              className="btn btn-ghost btn-square"
              aria-label="Menu"
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((value) => !value)}
            >
              <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true" focusable="false">
                {menuOpen ? (
                  <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                ) : (
                  <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                )}
              </svg>
            </button>
            {menuOpen ? (
              <ul
                id={menuId}
                className="absolute left-0 z-50 mt-2 flex w-64 flex-col gap-1 rounded-box border border-base-300 bg-base-100 p-2 shadow-lg"
              >
                {NAV_LINKS.map((link) => (
                  <li key={link.to}>
                    <NavLink
                      to={link.to}
                      end={link.end}
                      className={(state) => `block ${linkClass(state)}`}
                      onClick={close}
                    >
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          <Link to={paths.home} className="flex items-center gap-2 rounded-field px-1 text-xl font-bold tracking-tight">
            <BrandMark />
            {/* A signed-in phone's navbar also holds the bell and the cart: the mark alone shows under 420 px. */}
            <span className={user ? 'sr-only min-[420px]:not-sr-only' : undefined}>
              Skill<span className="text-primary">Hive</span>
            </span>
          </Link>
        </div>

        <ul className="hidden items-center gap-1 lg:flex">
          {NAV_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.end} className={linkClass}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>

        <div className="flex flex-1 items-center justify-end gap-1">
          <ThemeToggle />
          {user ? extra : null}
          {user && session.cartCount != null && (session.role === 'student' || session.cartCount > 0) ? (
            <CartLink count={session.cartCount} />
          ) : null}
          {user ? (
            <UserMenu session={session} />
          ) : loading ? (
            <span className="skeleton h-10 w-24" aria-hidden="true" />
          ) : (
            <Link
              to={paths.login}
              state={
                location.pathname === paths.login || location.pathname === paths.signup ? undefined : { from: location }
              }
              className="btn btn-primary"
            >
              Sign In
            </Link>
          )}
        </div>
      </nav>
    </header>
  );
}

/** The cart in the navbar (a signed-in student's): how many classes Pay Now will charge for. */
function CartLink({ count }: { count: number }) {
  return (
    <NavLink
      to={paths.dashboard.payment}
      className="btn btn-ghost btn-circle relative"
      aria-label={count === 0 ? 'Cart, empty' : `Cart, ${count} ${count === 1 ? 'class' : 'classes'}`}
      data-testid="nav-cart"
    >
      <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true" focusable="false">
        <path
          d="M3 4h2l2.4 11.2a1.5 1.5 0 0 0 1.5 1.2h8.7a1.5 1.5 0 0 0 1.5-1.1L21 8H6.2"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <circle cx="9.5" cy="20" r="1.3" fill="currentColor" />
        <circle cx="17.5" cy="20" r="1.3" fill="currentColor" />
      </svg>
      {count > 0 ? (
        <span className="badge badge-primary badge-sm absolute -right-1 -top-1 whitespace-nowrap" aria-hidden="true">
          {count}
        </span>
      ) : null}
    </NavLink>
  );
}
