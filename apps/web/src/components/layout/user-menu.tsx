import { useCallback, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { notify } from '../../lib/toast.ts';
import { dashboardHomePath } from '../../config/paths.ts';
import { errorMessage } from '../../lib/api-client.ts';
import type { LayoutSession } from './layout-session.ts';
import { useDismiss } from './use-dismiss.ts';
import { Avatar } from '../ui/fallback-image.tsx';

/** The signed-in user's photo opening a small menu: name, Dashboard, Log Out (spec §2). */
export function UserMenu({ session }: { session: LayoutSession }) {
  const { user, role, roleLoading, logOut } = session;
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const navigate = useNavigate();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, container, trigger);

  if (!user) return null;

  const handleLogOut = async () => {
    setOpen(false);
    try {
      await logOut();
      notify.success('You are logged out.');
      navigate('/', { replace: true });
    } catch (error) {
      notify.error(errorMessage(error, 'Logging out failed. Please try again.'));
    }
  };

  return (
    <div ref={container} className="relative">
      <button
        ref={trigger}
        type="button"
        className="btn btn-ghost btn-circle avatar"
        aria-label={`Account menu for ${user.displayName || user.email}`}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="w-10 overflow-hidden rounded-full ring-2 ring-accent ring-offset-2 ring-offset-base-100">
          <Avatar size={40} src={user.photoURL} className="h-10 w-10 object-cover" />
        </span>
      </button>
      {open ? (
        <div
          id={menuId}
          className="absolute right-0 z-50 mt-2 w-64 rounded-box border border-base-300 bg-base-100 p-3 shadow-lg"
        >
          <p className="truncate px-2 pb-2 font-semibold" data-testid="user-display-name">
            {user.displayName || user.email}
          </p>
          <p className="truncate px-2 pb-3 text-sm text-muted">{user.email}</p>
          <ul className="flex flex-col gap-2">
            <li>
              <Link
                to={dashboardHomePath(role)}
                className={`btn btn-primary btn-block ${roleLoading ? 'btn-disabled' : ''}`}
                aria-disabled={roleLoading || undefined}
                onClick={(event) => {
                  // The role decides the target (spec §2); wait for it rather than guess.
                  if (roleLoading) event.preventDefault();
                  else close();
                }}
              >
                Dashboard
              </Link>
            </li>
            <li>
              <button type="button" className="btn btn-outline btn-block" onClick={handleLogOut}>
                Log Out
              </button>
            </li>
          </ul>
        </div>
      ) : null}
    </div>
  );
}
