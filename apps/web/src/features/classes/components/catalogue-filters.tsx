import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigation } from 'react-router';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  CLASS_SORTS,
  type Category,
  type ClassSort,
} from '@skillhive/shared/rules/constants';
import {
  TIMES_OF_DAY,
  WEEKDAY_LABELS,
  WEEKDAYS,
  type TimeOfDay,
  type Weekday,
} from '@skillhive/shared/rules/weekly-schedule';
import { viewerTimeZone } from '../../../lib/session-time.ts';
import { RATING_FILTERS, SORT_LABELS, type CatalogueParams } from '../api/get-classes.ts';
import { SearchCombobox } from './search-combobox.tsx';

const SEARCH_DEBOUNCE_MS = 350;

interface CatalogueFiltersProps {
  params: CatalogueParams;
  onChange: (patch: Partial<CatalogueParams>, options?: { replace?: boolean }) => void;
}

export function CatalogueFilters({ params, onChange }: CatalogueFiltersProps) {
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

  // A navigation to another page (a chosen suggestion, a card, a link) must not be overtaken by the
  // search's own URL write that was still waiting for its debounce.
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const leaving = navigation.state !== 'idle' && navigation.location?.pathname !== pathname;

  useEffect(() => {
    const next = term.trim();
    if (leaving || next === written.current) return;
    const timer = window.setTimeout(() => {
      written.current = next;
      onChange({ q: next, page: 1 }, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [term, onChange, leaving]);

  return (
    <form
      role="search"
      aria-label="Filter classes"
      className="grid gap-4 rounded-box bg-base-200 p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr] xl:grid-cols-[2fr_1fr_1fr_1.5fr_1fr]"
      onSubmit={(event) => {
        event.preventDefault();
        const next = term.trim();
        written.current = next;
        // Enter in a price field applies it too (as leaving the field does).
        const data = new FormData(event.currentTarget);
        const price = (key: string) => {
          const text = String(data.get(key) ?? '').trim();
          return text === '' ? null : Number(text);
        };
        const minPrice = price('minPrice');
        const maxPrice = price('maxPrice');
        const prices = minPrice !== null && maxPrice !== null && maxPrice < minPrice ? {} : { minPrice, maxPrice };
        onChange({ q: next, page: 1, ...prices }, { replace: true });
      }}
    >
      <div className="sm:col-span-2 lg:col-span-1">
        <SearchCombobox label="Search classes" name="q" value={term} onValueChange={setTerm} />
      </div>
      <FilterSelect
        label="Category"
        name="category"
        value={params.category}
        onValueChange={(value) => onChange({ category: value as Category | '', page: 1 })}
      >
        <option value="">All categories</option>
        {CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {CATEGORY_LABELS[category]}
          </option>
        ))}
      </FilterSelect>
      <FilterSelect
        label="Sort by"
        name="sort"
        value={params.sort}
        onValueChange={(value) => onChange({ sort: value as ClassSort, page: 1 })}
      >
        {CLASS_SORTS.filter((sort) => sort !== 'relevance' || params.q).map((sort) => (
          <option key={sort} value={sort}>
            {SORT_LABELS[sort]}
          </option>
        ))}
      </FilterSelect>
      <PriceRange params={params} onChange={onChange} />
      <FilterSelect
        label="Rating"
        name="minRating"
        value={params.minRating ?? ''}
        onValueChange={(value) => onChange({ minRating: value ? Number(value) : null, page: 1 })}
      >
        <option value="">Any rating</option>
        {RATING_FILTERS.map((stars) => (
          <option key={stars} value={stars}>
            {stars} stars &amp; up
          </option>
        ))}
      </FilterSelect>
      <ScheduleFilter params={params} onChange={onChange} />
      <button type="submit" className="sr-only">
        Search
      </button>
    </form>
  );
}

const TIME_OF_DAY_NAMES = Object.keys(TIMES_OF_DAY) as TimeOfDay[];

/**
 * "Fits my week" (decision 053): a start date, days and times of day on the visitor's own clock.
 * Each change also writes the browser's zone into the URL, so the server reads the hours as the
 * visitor means them (and a server render of the link does too).
 */
function ScheduleFilter({ params: current, onChange }: CatalogueFiltersProps) {
  const dateId = useId();
  // Shown at once, as clicked: the URL (and so `current`) changes only when the catalogue has loaded
  // what was ticked, in a transition, and a checkbox left unticked until then reads as a missed click.
  const fromUrl = { startsAfter: current.startsAfter, days: current.days, times: current.times };
  const urlKey = JSON.stringify(fromUrl);
  const [seen, setSeen] = useState(urlKey);
  const [params, setParams] = useState(fromUrl);
  // Follow the URL when it changes from elsewhere (back button, "clear filters"), during render.
  if (seen !== urlKey) {
    setSeen(urlKey);
    setParams(fromUrl);
  }
  const toggle = <T extends string>(list: readonly T[], all: readonly T[], item: T, on: boolean): T[] =>
    all.filter((value) => (value === item ? on : list.includes(value)));
  const apply = (patch: Partial<typeof fromUrl>) => {
    setParams((old) => ({ ...old, ...patch }));
    onChange({ ...patch, tz: viewerTimeZone(), page: 1 });
  };
  return (
    <fieldset className="flex flex-col gap-3 sm:col-span-2 lg:col-span-3 xl:col-span-5" data-testid="schedule-filter">
      <legend className="mb-1 font-medium">When (your time zone)</legend>
      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={dateId} className="text-sm">
            Starts after
          </label>
          <input
            id={dateId}
            name="startsAfter"
            type="date"
            className="input w-44"
            value={params.startsAfter ?? ''}
            onChange={(event) => apply({ startsAfter: event.target.value || null })}
          />
        </div>
        <fieldset className="flex flex-wrap gap-x-3 gap-y-1">
          <legend className="mb-1 text-sm">Days</legend>
          {WEEKDAYS.map((day: Weekday) => (
            <label key={day} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                name="days"
                value={day}
                checked={params.days.includes(day)}
                onChange={(event) => apply({ days: toggle(params.days, WEEKDAYS, day, event.target.checked) })}
              />
              {WEEKDAY_LABELS[day]}
            </label>
          ))}
        </fieldset>
        <fieldset className="flex flex-wrap gap-x-3 gap-y-1">
          <legend className="mb-1 text-sm">Time of day</legend>
          {TIME_OF_DAY_NAMES.map((time) => (
            <label key={time} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                className="checkbox checkbox-sm"
                name="times"
                value={time}
                checked={params.times.includes(time)}
                onChange={(event) =>
                  apply({ times: toggle(params.times, TIME_OF_DAY_NAMES, time, event.target.checked) })
                }
              />
              {TIMES_OF_DAY[time].label}
            </label>
          ))}
        </fieldset>
      </div>
    </fieldset>
  );
}

interface FilterSelectProps {
  label: string;
  name: keyof CatalogueParams;
  value: string | number;
  onValueChange: (value: string) => void;
  children: ReactNode;
}

/** One of the catalogue's drop-down filters, applied as soon as it changes. */
function FilterSelect({ label, name, value, onValueChange, children }: FilterSelectProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        className="select w-full"
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
      >
        {children}
      </select>
    </div>
  );
}

/** Price bounds in dollars, applied when a field is left (or Enter), so typing does not refetch per key. */
function PriceRange({ params, onChange }: CatalogueFiltersProps) {
  const errorId = useId();
  const text = (value: number | null) => (value === null ? '' : String(value));
  const [min, setMin] = useState(text(params.minPrice));
  const [max, setMax] = useState(text(params.maxPrice));
  // Follow the URL when it changes from elsewhere (back button, "clear filters"), during render.
  const [shown, setShown] = useState({ min: params.minPrice, max: params.maxPrice });
  // Each field only when its own bound changed, so one being applied does not reset the other being typed.
  if (shown.min !== params.minPrice || shown.max !== params.maxPrice) {
    setShown({ min: params.minPrice, max: params.maxPrice });
    if (shown.min !== params.minPrice) setMin(text(params.minPrice));
    if (shown.max !== params.maxPrice) setMax(text(params.maxPrice));
  }
  const toNumber = (text: string) => (text.trim() === '' ? null : Number(text));
  const minValue = toNumber(min);
  const maxValue = toNumber(max);
  const invalid = minValue !== null && maxValue !== null && maxValue < minValue;
  const apply = () => {
    if (invalid) return;
    if (minValue === params.minPrice && maxValue === params.maxPrice) return;
    onChange({ minPrice: minValue, maxPrice: maxValue, page: 1 });
  };
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 font-medium">Price (USD)</legend>
      <div className="flex items-center gap-2">
        <PriceInput
          name="minPrice"
          label="Lowest price"
          placeholder="Min"
          value={min}
          onValueChange={setMin}
          onBlur={apply}
          invalid={invalid}
          errorId={errorId}
        />
        <span aria-hidden="true">–</span>
        <PriceInput
          name="maxPrice"
          label="Highest price"
          placeholder="Max"
          value={max}
          onValueChange={setMax}
          onBlur={apply}
          invalid={invalid}
          errorId={errorId}
        />
      </div>
      {invalid ? (
        <p id={errorId} className="text-sm text-error">
          The highest price must not be below the lowest.
        </p>
      ) : null}
    </fieldset>
  );
}

interface PriceInputProps {
  name: 'minPrice' | 'maxPrice';
  /** Read by screen readers only: the legend and placeholder say it on screen. */
  label: string;
  placeholder: string;
  value: string;
  onValueChange: (value: string) => void;
  onBlur: () => void;
  /** The two bounds are invalid together; `errorId` says why. */
  invalid: boolean;
  errorId: string;
}

/** One bound of PriceRange. */
function PriceInput({ name, label, placeholder, value, onValueChange, onBlur, invalid, errorId }: PriceInputProps) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        placeholder={placeholder}
        className="input w-full min-w-0"
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
        onChange={(event) => onValueChange(event.target.value)}
        onBlur={onBlur}
      />
    </>
  );
}
