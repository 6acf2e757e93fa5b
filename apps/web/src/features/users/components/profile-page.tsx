import { lazy, Suspense, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../../auth/auth-context.ts';
import { profileQueryOptions } from '../api/users.ts';
import { Avatar } from '../../../components/ui/fallback-image.tsx';
import { LoadingState, QueryState } from '../../../components/ui/query-state.tsx';

/** Starts the download of the settings' chunk: the profile route's loader calls it with the navigation. */
export const loadAccountSettings = () => import('./account-settings.tsx');
const AccountSettings = lazy(() => loadAccountSettings().then((module) => ({ default: module.AccountSettings })));

const ROLE_LABELS = { admin: 'Admin', teacher: 'Teacher', student: 'Student' } as const;

interface ProfilePageProps {
  /** The auth feature's "verify your address" notice, shown while the address is not verified. */
  emailNotice?: ReactNode;
}

/**
 * profile (spec §2): image, name, role, email, phone from GET /api/users/profile/:email; then the
 * account's settings (account-settings.tsx), which arrive as a chunk of their own.
 */
export function ProfilePage({ emailNotice }: ProfilePageProps) {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const query = useQuery(profileQueryOptions(user));
  const [params] = useSearchParams();

  return (
    <div className="flex flex-col gap-6">
      <title>Profile — SkillHive</title>
      <h1 className="text-2xl font-bold sm:text-3xl">Profile</h1>
      <QueryState query={query} what="profile">
        {(data) => (
          <div className="flex max-w-3xl flex-col gap-6">
            <article className="card border border-base-300 bg-base-100 shadow-sm">
              <div className="card-body flex-col items-center gap-4 text-center sm:flex-row sm:items-start sm:text-left">
                <Avatar
                  size={112}
                  src={data.image}
                  alt={`Photo of ${data.name}`}
                  className="h-28 w-28 shrink-0 rounded-full object-cover ring-4 ring-accent"
                />
                <dl className="grid min-w-0 flex-1 grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-left">
                  <dt className="font-semibold">Name</dt>
                  <dd className="break-words">{data.name}</dd>
                  <dt className="font-semibold">Role</dt>
                  <dd>
                    <span className="badge badge-secondary">{ROLE_LABELS[data.role]}</span>
                  </dd>
                  <dt className="font-semibold">Email</dt>
                  <dd className="break-all">{data.email}</dd>
                  <dt className="font-semibold">Phone</dt>
                  <dd className="break-words">{data.phone || 'Not given'}</dd>
                </dl>
              </div>
            </article>

            <Suspense fallback={<LoadingState label="Loading your account settings..." />}>
              <AccountSettings
                profile={data}
                email={email}
                emailVerified={user?.emailVerified === true}
                emailNotice={emailNotice}
                linkError={params.get('error')}
              />
            </Suspense>
          </div>
        )}
      </QueryState>
    </div>
  );
}
