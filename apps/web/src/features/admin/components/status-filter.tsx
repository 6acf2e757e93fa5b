import { useId } from 'react';
import { useSearchParams } from 'react-router';

interface StatusFilterProps<S extends string> {
  statuses: readonly S[];
  labels: Record<S, string>;
  value: S | '';
}

/** A ?status= filter for the moderation tables; changing it goes back to page 1. */
export function StatusFilter<S extends string>({ statuses, labels, value }: StatusFilterProps<S>) {
  const id = useId();
  const [search, setSearch] = useSearchParams();
  return (
    <div className="flex flex-col gap-1 self-start">
      <label htmlFor={id} className="font-medium">
        Show
      </label>
      <select
        id={id}
        className="select w-full sm:w-56"
        value={value}
        onChange={(event) => {
          const next = new URLSearchParams(search);
          next.delete('page');
          if (event.target.value) next.set('status', event.target.value);
          else next.delete('status');
          setSearch(next);
        }}
      >
        <option value="">All</option>
        {statuses.map((status) => (
          <option key={status} value={status}>
            {labels[status]}
          </option>
        ))}
      </select>
    </div>
  );
}
