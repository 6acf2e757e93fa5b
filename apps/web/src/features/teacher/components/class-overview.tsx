import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CATEGORY_LABELS } from '@skillhive/shared/rules/constants';
import { formatPrice } from '@skillhive/shared/rules/money';
import type { ClassItem } from '@skillhive/shared/contracts/classes';
import { managedClassQueryOptions } from '../api/classes.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { ClassStatusBadge } from './class-status-badge.tsx';
import { FallbackImage } from '../../../components/ui/fallback-image.tsx';

interface ClassOverviewProps {
  classId: string;
  /** Page title, e.g. "Class details". */
  heading: string;
  /** spec §8 names "Error fetching profile:" for the my-class page; others say "class". */
  errorWhat?: string;
  /** Shown under the details once the class has loaded (the enrollment figures). */
  children?: ReactNode;
  actions?: (item: ClassItem) => ReactNode;
  /** Shown first, above the class's card (the teacher's editor on my-class/:id). */
  lead?: (item: ClassItem) => ReactNode;
}

/**
 * A class loaded by id with everything spec §2 lists for my-class/:id and seeProgressDetails/:id:
 * name, email, price, description, title, image.
 */
export function ClassOverview({ classId, heading, errorWhat = 'class', children, actions, lead }: ClassOverviewProps) {
  const query = useQuery(managedClassQueryOptions(useUserScope(), classId));
  return (
    <div className="flex flex-col gap-6">
      <title>{`${query.data?.title ?? heading} — SkillHive`}</title>
      <h1 className="text-2xl font-bold sm:text-3xl">{heading}</h1>
      <QueryState query={query} what={errorWhat}>
        {(data) => (
          <>
            {lead?.(data)}
            <article className="card border border-base-300 bg-base-100 shadow-sm lg:card-side">
              <figure className="bg-base-200 lg:w-2/5">
                <FallbackImage
                  src={data.image}
                  alt={`Image of ${data.title}`}
                  width={640}
                  height={360}
                  className="aspect-video h-full w-full object-cover"
                />
              </figure>
              <div className="card-body min-w-0 gap-3 p-5">
                <div className="flex flex-wrap items-center gap-2">
                  <h2 className="card-title text-xl">{data.title}</h2>
                  <ClassStatusBadge status={data.status} />
                </div>
                <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
                  <dt className="font-semibold">Name</dt>
                  <dd className="break-words">{data.name}</dd>
                  <dt className="font-semibold">Email</dt>
                  <dd className="break-all">{data.email}</dd>
                  <dt className="font-semibold">Price</dt>
                  <dd>{formatPrice(data.price)}</dd>
                  <dt className="font-semibold">Category</dt>
                  <dd>{CATEGORY_LABELS[data.category] ?? data.category}</dd>
                </dl>
                <p className="grow-0 whitespace-pre-line break-words">{data.description}</p>
                {actions ? <div className="card-actions">{actions(data)}</div> : null}
              </div>
            </article>
            {children}
          </>
        )}
      </QueryState>
    </div>
  );
}
