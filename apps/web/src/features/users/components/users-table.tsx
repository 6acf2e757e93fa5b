import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { notify } from '../../../lib/toast.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { USERS_PAGE_SIZE, useDeleteUser, usePromoteUser, usersQueryOptions } from '../api/users.ts';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { confirmDeleteOf, confirmMakeAdminOf, useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { countOf } from '../../../lib/plural.ts';

const ROLE_LABELS = { admin: 'Admin', teacher: 'Teacher', student: 'Student' } as const;

/** users (spec §2): #, name, email, role, Make Admin for non-admins, Delete; search and pages. */
export function UsersTable() {
  const { user: me } = useAuth();
  const [search, setSearch] = useSearchParams();
  const page = usePageParam();
  const q = (search.get('q') ?? '').trim().slice(0, 100);
  const [draft, setDraft] = useState(q);
  const query = useQuery(usersQueryOptions(me, { page, q }));
  const promote = usePromoteUser();
  const remove = useDeleteUser();
  const [confirm, dialog] = useConfirm();

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (draft.trim()) next.set('q', draft.trim());
    setSearch(next);
  };

  const makeAdmin = async (id: string, name: string) => {
    if ((await confirm(confirmMakeAdminOf(name))) !== 'confirmed') return;
    promote.mutate(id, {
      onSuccess: () => notify.success(`${name} is an admin now.`),
      onError: (error) => notify.error(errorMessage(error)),
    });
  };

  const deleteUser = async (id: string, name: string) => {
    if ((await confirm(confirmDeleteOf(name))) !== 'confirmed') return;
    remove.mutate(id, {
      onSuccess: () => notify.success(`${name} has been deleted.`),
      onError: (error) => notify.error(errorMessage(error)),
    });
  };

  return (
    <div className="flex flex-col gap-5">
      <title>Users — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Manage users</h1>
        <p className="text-muted">{query.data ? countOf(query.data.total, 'user') : '\u00a0'}</p>
      </div>
      <form role="search" onSubmit={submitSearch} className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor="users-search" className="font-medium">
            Search by name or e-mail
          </label>
          <input
            id="users-search"
            type="search"
            className="input w-full"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </form>
      <PagedQueryState query={query} what="users" empty="No users match your search.">
        {(data) => (
          <>
            <DataTable label="Users" columns={['#', 'Name', 'Email', 'Role', 'Action']}>
              {data.items.map((user, index) => {
                const isSelf = user.email === me?.email;
                return (
                  <tr key={user._id}>
                    <th scope="row">{(page - 1) * USERS_PAGE_SIZE + index + 1}</th>
                    <td>{user.name}</td>
                    <td className="whitespace-nowrap">{user.email}</td>
                    <td>{ROLE_LABELS[user.role]}</td>
                    <td>
                      <div className="flex flex-wrap gap-2">
                        {user.admin ? null : (
                          <button
                            type="button"
                            className="btn btn-sm btn-primary"
                            disabled={promote.isPending}
                            aria-label={`Make Admin: ${user.name}`}
                            onClick={() => void makeAdmin(user._id, user.name)}
                          >
                            Make Admin
                          </button>
                        )}
                        <button
                          type="button"
                          className="btn btn-sm btn-error btn-outline"
                          disabled={remove.isPending || isSelf}
                          title={isSelf ? 'You cannot delete yourself' : undefined}
                          aria-label={`Delete ${user.name}`}
                          onClick={() => void deleteUser(user._id, user.name)}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </DataTable>
            <PageControls page={page} total={data.total} limit={USERS_PAGE_SIZE} label="Users pages" />
          </>
        )}
      </PagedQueryState>
      {dialog}
    </div>
  );
}
