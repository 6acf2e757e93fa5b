import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../../auth/auth-context.ts';
import { profileQueryOptions } from '../api/users.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';

const DEFAULT_AVATAR = '/images/avatar-default.svg';
const ROLE_LABELS = { admin: 'Admin', teacher: 'Teacher', student: 'Student' } as const;

/** profile (spec §2): image, name, role, email, phone from GET /api/users/profile/:email. */
export function ProfilePage() {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const query = useQuery({ ...profileQueryOptions(email), enabled: email !== '' });
  const [imageFailed, setImageFailed] = useState(false);

  return (
    <div className="flex flex-col gap-6">
      <title>Profile — SkillHive</title>
      <h1 className="text-2xl font-bold sm:text-3xl">Profile</h1>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        // spec §8 spells this message for profile and my-class failures.
        <FetchError what="profile" error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <article className="card max-w-xl border border-base-300 bg-base-100 shadow-sm">
          <div className="card-body flex-col items-center gap-4 text-center sm:flex-row sm:items-start sm:text-left">
            <img
              src={imageFailed || !query.data.image ? DEFAULT_AVATAR : query.data.image}
              alt={`Photo of ${query.data.name}`}
              width={112}
              height={112}
              referrerPolicy="no-referrer"
              onError={() => setImageFailed(true)}
              className="h-28 w-28 shrink-0 rounded-full object-cover ring-4 ring-accent"
            />
            <dl className="grid min-w-0 flex-1 grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-left">
              <dt className="font-semibold">Name</dt>
              <dd className="break-words">{query.data.name}</dd>
              <dt className="font-semibold">Role</dt>
              <dd>
                <span className="badge badge-secondary">{ROLE_LABELS[query.data.role]}</span>
              </dd>
              <dt className="font-semibold">Email</dt>
              <dd className="break-all">{query.data.email}</dd>
              <dt className="font-semibold">Phone</dt>
              <dd className="break-words">{query.data.phone || 'Not given'}</dd>
            </dl>
          </div>
        </article>
      )}
    </div>
  );
}
