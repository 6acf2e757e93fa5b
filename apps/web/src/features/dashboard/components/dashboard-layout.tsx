import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { useAppConfig } from '../../auth/api/get-app-config.ts';
import { useAuth } from '../../auth/auth-context.ts';
import {
  DASHBOARD_MENUS,
  MESSAGES_ITEM,
  NOTIFICATIONS_ITEM,
  PROFILE_ITEM,
  SECTION_TITLES,
  SHARED_MENU,
  menuRoles,
  type MenuItem,
} from './dashboard-menu.ts';

function MenuList({ items, onNavigate }: { items: MenuItem[]; onNavigate?: () => void }) {
  return (
    <>
      {items.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end
            onClick={onNavigate}
            className={({ isActive }) => (isActive ? 'menu-active font-semibold' : '')}
          >
            {item.label}
          </NavLink>
        </li>
      ))}
    </>
  );
}

function DashboardNav({ onNavigate }: { onNavigate?: () => void }) {
  const { isAdmin, isTeacher, roleLoading } = useAuth();
  const config = useAppConfig();
  const roles = menuRoles({ isAdmin, isTeacher });
  const offered = (item: MenuItem) => !item.requires || config.data?.[item.requires] === true;
  const navigateProps = onNavigate ? { onNavigate } : {};
  if (roleLoading) {
    return (
      <div className="flex flex-col gap-2 p-2" aria-hidden="true">
        <div className="skeleton h-8 w-full" />
        <div className="skeleton h-8 w-full" />
        <div className="skeleton h-8 w-full" />
      </div>
    );
  }
  return (
    <nav aria-label="Dashboard">
      <ul className="menu w-full gap-1">
        {roles.map((role) => (
          <li key={role}>
            {/* One titled section per role held; a single section needs no title. */}
            {roles.length > 1 ? <h2 className="menu-title text-secondary-content/80">{SECTION_TITLES[role]}</h2> : null}
            <ul className="ms-0 ps-0 before:hidden">
              <MenuList items={DASHBOARD_MENUS[role].filter(offered)} {...navigateProps} />
            </ul>
          </li>
        ))}
        <MenuList items={[MESSAGES_ITEM, NOTIFICATIONS_ITEM, PROFILE_ITEM]} {...navigateProps} />
      </ul>
      <div className="divider my-1 before:bg-white/30 after:bg-white/30" aria-hidden="true" />
      <ul className="menu w-full gap-1" aria-label="SkillHive">
        <MenuList items={SHARED_MENU} {...navigateProps} />
      </ul>
    </nav>
  );
}

/**
 * Below the lg breakpoint the side menu becomes a drawer: a modal <dialog> (focus moves in and is
 * held there, Escape or the backdrop closes it, focus returns to the button).
 */
function MobileDrawer() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) {
      element.close();
      button.current?.focus();
    }
  }, [open]);

  return (
    <div className="lg:hidden">
      <button
        ref={button}
        type="button"
        className="btn btn-secondary btn-block justify-start gap-2"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
          <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        Dashboard menu
      </button>
      <dialog
        ref={dialog}
        aria-label="Dashboard menu"
        className="m-0 h-full max-h-none w-72 max-w-[85vw] bg-secondary p-3 text-secondary-content backdrop:bg-black/50"
        onCancel={(event) => {
          event.preventDefault();
          setOpen(false);
        }}
        onClick={(event) => {
          if (event.target === event.currentTarget) setOpen(false);
        }}
      >
        <div className="mb-2 flex items-center justify-between gap-2">
          <p className="px-2 font-bold">Dashboard</p>
          <button
            type="button"
            className="btn btn-ghost btn-sm btn-square"
            aria-label="Close menu"
            onClick={() => setOpen(false)}
          >
            <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        {open ? <DashboardNav onNavigate={() => setOpen(false)} /> : null}
      </dialog>
    </div>
  );
}

/** The dashboard of spec §2: the role's side menu beside the page (a drawer on small screens). */
export function DashboardLayout() {
  return (
    <div className="grid gap-4 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-6">
      <MobileDrawer />
      <aside className="hidden self-start rounded-box bg-secondary p-3 text-secondary-content lg:block">
        <DashboardNav />
      </aside>
      <section className="min-w-0" aria-label="Dashboard content">
        <Outlet />
      </section>
    </div>
  );
}
