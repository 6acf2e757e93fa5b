import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ALL_STATUSES } from '../api/admin.ts';

interface StatusFilterProps<S extends string> {
  statuses: readonly S[];
  labels: Record<S, string>;
  value: S | '';
  /** The current ?q=, and what the search looks in (its label). */
  search: string;
  searchLabel: string;
}

/**
 * The moderation tables' filters: ?status= (pending unless chosen otherwise, `all`
 * for every status) and a search ?q=. Changing either goes back to page 1.
 */
export function StatusFilter<S extends string>({ statuses, labels, value, search, searchLabel }: StatusFilterProps<S>) {
  const statusId = useId();
  const searchId = useId();
  const [params, setParams] = useSearchParams();
  const [draft, setDraft] = useState(search);

  const update = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    change(next);
    setParams(next);
  };

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    update((next) => {
      if (draft.trim()) next.set('q', draft.trim());
      else next.delete('q');
    });
  };

  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="flex flex-col gap-1">
        <label htmlFor={statusId} className="font-medium">
          Show
        </label>
        <select
          id={statusId}
          className="select w-full sm:w-48"
          value={value || ALL_STATUSES}
          onChange={(event) => update((next) => next.set('status', event.target.value))}
        >
          {statuses.map((status) => (
            <option key={status} value={status}>
              {labels[status]}
            </option>
          ))}
          <option value={ALL_STATUSES}>All</option>
        </select>
      </div>
      <form role="search" onSubmit={submitSearch} className="flex min-w-0 flex-1 flex-wrap items-end gap-2">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={searchId} className="font-medium">
            {searchLabel}
          </label>
          <input
            id={searchId}
            type="search"
            className="input w-full"
            maxLength={100}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </form>
    </div>
  );
}
