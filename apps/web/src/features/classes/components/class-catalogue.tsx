import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';
import { EmptyState, ErrorState } from '../../../components/ui/status-states.tsx';
import {
  CATALOGUE_PAGE_SIZE,
  classesQueryOptions,
  defaultSortFor,
  hasSchedule,
  parseCatalogueParams,
  toSearchParams,
  type CatalogueParams,
} from '../api/get-classes.ts';
import { CatalogueFilters } from './catalogue-filters.tsx';
import { ClassCard, ClassCardSkeleton } from './class-card.tsx';
import { Pagination } from './pagination.tsx';

/** The grid of accepted classes with search, category, sort and pages all in the URL. */
export function ClassCatalogue() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = parseCatalogueParams(searchParams);
  const query = useQuery(classesQueryOptions(params));

  const update = useCallback(
    (patch: Partial<CatalogueParams>, options?: { replace?: boolean }) => {
      setSearchParams(
        (current) => {
          const previous = parseCatalogueParams(current);
          const next = { ...previous, ...patch };
          // A new query keeps the order chosen, but an order left as it was follows the query:
          // best match while searching, newest first without a query.
          if (patch.q !== undefined && patch.sort === undefined && previous.sort === defaultSortFor(previous.q))
            next.sort = defaultSortFor(next.q);
          return toSearchParams(next);
        },
        {
          replace: options?.replace ?? false,
          preventScrollReset: true,
        },
      );
    },
    [setSearchParams],
  );

  const total = query.data?.total ?? 0;
  // A search with more matches than the server counts: the total is a floor ("1,000+ classes").
  const totalCapped = query.data?.totalCapped ?? false;
  const items = query.data?.items ?? [];
  const pageCount = Math.max(1, Math.ceil(total / CATALOGUE_PAGE_SIZE));
  const hasFilters =
    params.q !== '' ||
    params.category !== '' ||
    params.minPrice !== null ||
    params.maxPrice !== null ||
    params.minRating !== null ||
    hasSchedule(params);
  const first = (params.page - 1) * CATALOGUE_PAGE_SIZE + 1;
  const last = first + items.length - 1;

  const summary = query.isPending
    ? 'Loading classes…'
    : query.isError
      ? ''
      : total === 0
        ? 'No classes found.'
        : items.length === 0
          ? `No classes on page ${params.page}.`
          : `Showing ${first}–${last} of ${total.toLocaleString('en-US')}${totalCapped ? '+' : ''} ${total === 1 && !totalCapped ? 'class' : 'classes'}`;

  return (
    <div className="flex flex-col gap-6">
      <CatalogueFilters params={params} onChange={update} />

      <p role="status" aria-live="polite" className="min-h-6 text-muted">
        {summary}
      </p>

      {query.isPending ? (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-hidden="true">
          {Array.from({ length: 8 }, (_, index) => (
            <li key={index}>
              <ClassCardSkeleton />
            </li>
          ))}
        </ul>
      ) : query.isError ? (
        <ErrorState
          title="We could not load the classes"
          message={errorMessage(query.error)}
          onRetry={() => void query.refetch()}
        />
      ) : items.length === 0 ? (
        <EmptyState title={total === 0 && hasFilters ? 'No classes match your search' : 'No classes here yet'}>
          {hasFilters || params.page > 1 ? (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() =>
                update({
                  q: '',
                  category: '',
                  minPrice: null,
                  maxPrice: null,
                  minRating: null,
                  startsAfter: null,
                  days: [],
                  times: [],
                  page: 1,
                })
              }
            >
              Clear filters
            </button>
          ) : (
            <p className="text-muted">New classes appear here as soon as they are approved.</p>
          )}
        </EmptyState>
      ) : (
        <>
          <ul
            className={`grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4 ${query.isPlaceholderData ? 'opacity-60' : ''}`}
            aria-busy={query.isPlaceholderData || undefined}
            data-testid="class-grid"
          >
            {items.map((item, index) => (
              <li key={item._id}>
                <ClassCard item={item} eager={index < 4} />
              </li>
            ))}
          </ul>
          <Pagination
            page={params.page}
            pageCount={pageCount}
            morePages={totalCapped}
            hrefFor={(page) => {
              const search = toSearchParams({ ...params, page }).toString();
              return search ? `${paths.allClasses}?${search}` : paths.allClasses;
            }}
          />
        </>
      )}
    </div>
  );
}
