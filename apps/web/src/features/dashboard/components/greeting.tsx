import type { ReactNode } from 'react';
import { useAuth } from '../../auth/auth-context.ts';
import { QueryState, type LoadedQuery } from '../../../components/ui/query-state.tsx';

/** spec §2: "greeting with the display name, or Back". */
function Greeting({ children }: { children?: ReactNode }) {
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

/** A role's dashboard home (spec §2): its title, the greeting, then its figures once loaded. */
export function DashboardHome<T>({
  title,
  intro,
  query,
  what,
  children,
}: {
  title: string;
  intro: string;
  query: LoadedQuery<T>;
  /** For "Error fetching <what>: …". */
  what: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <div className="flex flex-col gap-6">
      <title>{`${title} — SkillHive`}</title>
      <Greeting>{intro}</Greeting>
      <QueryState query={query} what={what}>
        {children}
      </QueryState>
    </div>
  );
}
