import type { ReactNode } from 'react';
import { useAuth } from '../../auth/auth-context.ts';

/** spec §2: "greeting with the display name, or Back". */
export function Greeting({ children }: { children?: ReactNode }) {
  const { user } = useAuth();
  const name = user?.displayName?.trim();
  return (
    <header className="flex flex-col gap-1">
      <h1 className="text-2xl font-bold sm:text-3xl">
        <span>Hi, Welcome </span>
        {name ? <span>{name}</span> : 'Back'}
      </h1>
      {children ? <p className="text-muted">{children}</p> : null}
    </header>
  );
}
