import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { CATEGORY_LABELS } from '@skillhive/shared/rules/constants';
import { paths } from '../../../config/paths.ts';
import { SUGGEST_MIN_CHARS, suggestionsQueryOptions } from '../api/get-public-class.ts';

/** Suggestions wait for a pause in typing; each new term aborts the request of the last one. */
const SUGGEST_DEBOUNCE_MS = 200;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * The catalogue's search box with suggestions as one types (decision 018), after the ARIA combobox
 * pattern: the input is a `combobox` that owns a `listbox`; Up and Down move through the
 * suggestions (announced through `aria-activedescendant`, focus stays in the input), Enter opens
 * the chosen class or, with none chosen, searches for the text; Escape closes the list.
 */
export function SearchCombobox({
  value,
  onValueChange,
  label,
  name,
}: {
  value: string;
  onValueChange: (value: string) => void;
  label: string;
  name: string;
}) {
  const inputId = useId();
  const listId = useId();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  // The chosen suggestion, by position in the list it was chosen in: a new list starts with none.
  const [choice, setChoice] = useState<{ list: unknown; index: number }>({ list: null, index: -1 });
  const term = useDebounced(value.trim(), SUGGEST_DEBOUNCE_MS);
  const suggestions = useQuery(suggestionsQueryOptions(term));
  const options = term.length >= SUGGEST_MIN_CHARS ? (suggestions.data ?? []) : [];
  const expanded = open && options.length > 0;
  const optionId = (index: number) => `${listId}-option-${index}`;

  // Text typed into the server's page before its code ran (decision 049): React keeps it in the
  // box when it takes the page over, but does not know it. Adopted once, so the suggestions and
  // the search follow what the person typed.
  const input = useRef<HTMLInputElement>(null);
  const typedEarly = useRef({ value, onValueChange });
  useEffect(() => {
    const element = input.current;
    const { value: rendered, onValueChange: adopt } = typedEarly.current;
    if (!element || element.value === rendered) return;
    adopt(element.value);
    if (document.activeElement === element) setOpen(true);
  }, []);

  const active = choice.list === suggestions.data ? choice.index : -1;
  const setActive = (next: number | ((current: number) => number)) =>
    setChoice({ list: suggestions.data, index: typeof next === 'function' ? next(active) : next });

  const choose = (index: number) => {
    const option = options[index];
    if (!option) return;
    setOpen(false);
    navigate(paths.classPage(option._id));
  };

  return (
    <div className="relative flex flex-col gap-1">
      <label htmlFor={inputId} className="font-medium">
        {label}
      </label>
      <input
        ref={input}
        id={inputId}
        type="search"
        name={name}
        value={value}
        maxLength={100}
        placeholder="Title, topic or teacher"
        autoComplete="off"
        className="input w-full"
        role="combobox"
        aria-autocomplete="list"
        aria-controls={listId}
        aria-expanded={expanded}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        onChange={(event) => {
          onValueChange(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
            if (options.length === 0) return;
            const count = options.length;
            setActive((current) =>
              event.key === 'ArrowDown' ? (current + 1) % count : current <= 0 ? count - 1 : current - 1,
            );
          } else if (event.key === 'Enter' && expanded && active >= 0 && active < options.length) {
            event.preventDefault();
            choose(active);
          } else if (event.key === 'Escape' && expanded) {
            event.preventDefault();
            setOpen(false);
            setActive(-1);
          } else if (event.key === 'Enter') {
            setOpen(false);
          }
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Suggested classes"
        hidden={!expanded}
        className="absolute top-full z-20 mt-1 w-full overflow-hidden rounded-box border border-base-300 bg-base-100 shadow-lg"
      >
        {options.map((option, index) => (
          <li
            key={option._id}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={`flex cursor-pointer flex-col px-3 py-2 ${index === active ? 'bg-base-200' : ''}`}
            // Keeps the focus in the input, so the click is not lost to its blur.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(index)}
            onMouseEnter={() => setActive(index)}
          >
            <span className="break-words font-medium">{option.title}</span>
            <span className="text-sm text-muted">
              {option.name} · {CATEGORY_LABELS[option.category]}
            </span>
          </li>
        ))}
      </ul>
      <p aria-live="polite" className="sr-only">
        {expanded ? `${options.length} ${options.length === 1 ? 'suggestion' : 'suggestions'}, use the arrow keys` : ''}
      </p>
    </div>
  );
}
