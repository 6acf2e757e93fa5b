import { useId, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import type { UserListItem } from '@skillhive/shared/contracts/users';
import type { SetFeeRateBody } from '@skillhive/shared/rules/earnings';
import { errorMessage } from '../../../lib/api-client.ts';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { TextField } from '../../../components/ui/form-field.tsx';
import { PagedQueryState, QueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { usersQueryOptions } from '../../users/api/users.ts';
import { teacherFeeRateQueryOptions, useSetFeeRate } from '../api/earnings.ts';

const feeRateResolver = lazyZodResolver(() =>
  import('@skillhive/shared/rules/earnings').then((rules) => rules.SetFeeRateBody),
);

type FeeRateInput = { feePercent: number | null };

/**
 * A teacher's own platform fee (decision 039): found by name or e-mail, set in a dialog, or
 * emptied to go back to the platform's rate. It applies to their next sales; the server audits it.
 */
export function FeeRateSection() {
  const headingId = useId();
  const searchId = useId();
  const user = useUserScope();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const query = useQuery({ ...usersQueryOptions(user, { page: 1, q }), enabled: user !== null && q !== '' });
  const [editing, setEditing] = useState<UserListItem | null>(null);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQ(draft.trim());
  };
  const teachersOf = (items: UserListItem[]) => items.filter((person) => person.teacher);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-bold">
        A teacher’s fee rate
      </h2>
      <form role="search" className="flex flex-wrap items-end gap-2" onSubmit={search}>
        <div className="flex grow flex-col gap-1 sm:max-w-md">
          <label htmlFor={searchId} className="font-medium">
            Teacher name or e-mail
          </label>
          <input
            id={searchId}
            className="input w-full"
            value={draft}
            maxLength={100}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-outline whitespace-nowrap" disabled={draft.trim().length === 0}>
          Find teachers
        </button>
      </form>
      {q ? (
        <PagedQueryState
          query={{
            ...query,
            data: query.data ? { items: teachersOf(query.data.items), total: query.data.total } : undefined,
          }}
          what="teachers"
          empty={`No teacher matches “${q}”.`}
        >
          {(data) => (
            <DataTable label="Teachers found" columns={['Teacher', 'E-mail', 'Fee rate']}>
              {data.items.map((teacher) => (
                <tr key={teacher._id}>
                  <th scope="row" className="min-w-40 font-medium">
                    {teacher.name}
                  </th>
                  <td className="break-all">{teacher.email}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline whitespace-nowrap"
                      aria-label={`Set the fee rate of ${teacher.name}`}
                      onClick={() => setEditing(teacher)}
                    >
                      Set fee rate
                    </button>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </PagedQueryState>
      ) : null}
      {editing ? <FeeRateDialog teacher={editing} onDone={() => setEditing(null)} /> : null}
    </section>
  );
}

function FeeRateDialog({ teacher, onDone }: { teacher: UserListItem; onDone: () => void }) {
  const user = useUserScope();
  const rate = useQuery(teacherFeeRateQueryOptions(user, teacher._id));
  const save = useSetFeeRate();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<FeeRateInput, unknown, SetFeeRateBody>({
    resolver: feeRateResolver,
    values: rate.data ? { feePercent: rate.data.ownFeePercent } : undefined,
  });
  const submit = handleSubmit((body) =>
    save.mutate(
      { teacherId: teacher._id, body },
      {
        onSuccess: (saved) => {
          notify.success(
            saved.ownFeePercent === null
              ? `${teacher.name} now pays the platform’s fee (${saved.platformFeePercent}%).`
              : `${teacher.name}’s fee is now ${saved.ownFeePercent}%.`,
          );
          onDone();
        },
        onError: (error) => setError('feePercent', { message: errorMessage(error) }),
      },
    ),
  );
  const field = register('feePercent', {
    setValueAs: (value: unknown) =>
      value === '' || value === null || value === undefined ? null : Number(String(value).replace(',', '.')),
    onBlur: () => feeRateResolver.preload(),
  });
  return (
    <FormDialog
      open
      title={`Fee rate of ${teacher.name}`}
      description="Applies to their next sales; sales already made keep the fee they were made with."
      onCancel={onDone}
      onSubmit={(event) => void submit(event)}
    >
      <QueryState query={rate} what="the fee rate">
        {(data) => (
          <TextField
            label="Their fee (%)"
            inputMode="decimal"
            placeholder={`Platform rate: ${data.platformFeePercent}`}
            hint={`Leave empty for the platform’s rate (${data.platformFeePercent}%). Now: ${data.feePercent}%.`}
            error={errors.feePercent?.message ?? errors.root?.message}
            onFocus={() => feeRateResolver.preload()}
            {...field}
          />
        )}
      </QueryState>
      <div className="modal-action flex-wrap">
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          Cancel
        </button>
        <BusyButton type="submit" className="btn-primary" busy={save.isPending} disabled={!rate.data}>
          Save fee rate
        </BusyButton>
      </div>
    </FormDialog>
  );
}
