import { useEffect, useId, useRef, useState } from 'react';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  CLASS_SORTS,
  type Category,
  type ClassSort,
} from '@skillhive/shared/rules/constants';
import { SORT_LABELS, type CatalogueParams } from '../api/get-classes.ts';

const SEARCH_DEBOUNCE_MS = 350;

interface CatalogueFiltersProps {
  params: CatalogueParams;
  onChange: (patch: Partial<CatalogueParams>, options?: { replace?: boolean }) => void;
}

export function CatalogueFilters({ params, onChange }: CatalogueFiltersProps) {
  const searchId = useId();
  const categoryId = useId();
  const sortId = useId();
  const [term, setTerm] = useState(params.q);
  /** The last q this component wrote, so its own URL update does not clobber newer typing. */
  const written = useRef(params.q);

  // Follow the URL when it changes from elsewhere (back button, a link, "clear filters").
  useEffect(() => {
    if (params.q !== written.current) {
      written.current = params.q;
      setTerm(params.q);
    }
  }, [params.q]);

  useEffect(() => {
    const next = term.trim();
    if (next === written.current) return;
    const timer = window.setTimeout(() => {
      written.current = next;
      onChange({ q: next, page: 1 }, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [term, onChange]);

  return (
    <form
      role="search"
      aria-label="Filter classes"
      className="grid gap-4 rounded-box bg-base-200 p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr]"
      onSubmit={(event) => {
        event.preventDefault();
        const next = term.trim();
        written.current = next;
        onChange({ q: next, page: 1 }, { replace: true });
      }}
    >
      <div className="flex flex-col gap-1 sm:col-span-2 lg:col-span-1">
        <label htmlFor={searchId} className="font-medium">
          Search classes
        </label>
        <input
          id={searchId}
          type="search"
          name="q"
          value={term}
          maxLength={100}
          placeholder="Title, topic or teacher"
          autoComplete="off"
          className="input w-full"
          onChange={(event) => setTerm(event.target.value)}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={categoryId} className="font-medium">
          Category
        </label>
        <select
          id={categoryId}
          name="category"
          className="select w-full"
          value={params.category}
          onChange={(event) => onChange({ category: event.target.value as Category | '', page: 1 })}
        >
          <option value="">All categories</option>
          {CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {CATEGORY_LABELS[category]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={sortId} className="font-medium">
          Sort by
        </label>
        <select
          id={sortId}
          name="sort"
          className="select w-full"
          value={params.sort}
          onChange={(event) => onChange({ sort: event.target.value as ClassSort, page: 1 })}
        >
          {CLASS_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="sr-only">
        Search
      </button>
    </form>
  );
}
