import type { ReactNode } from 'react';
import { FallbackImage } from './fallback-image.tsx';
import { PageControls } from './page-controls.tsx';

interface ClassImageCardProps {
  /** The heading's id: the card is named by it, and its buttons are described by it. */
  titleId: string;
  title: string;
  image: string | null | undefined;
  /** The class's status beside its title. */
  badge: ReactNode;
  children: ReactNode;
}

/**
 * A class as a dashboard card (a student's enrollments, a teacher's classes): its image, its title
 * beside a status badge, then what that dashboard shows of it.
 */
export function ClassImageCard({ titleId, title, image, badge, children }: ClassImageCardProps) {
  return (
    <article aria-labelledby={titleId} className="card h-full border border-base-300 bg-base-100 shadow-sm">
      <figure className="aspect-video bg-base-200">
        <FallbackImage
          src={image}
          alt=""
          width={640}
          height={360}
          loading="lazy"
          className="h-full w-full object-cover"
        />
      </figure>
      <div className="card-body gap-2 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={titleId} className="card-title text-lg">
            {title}
          </h2>
          {badge}
        </div>
        {children}
      </div>
    </article>
  );
}

interface ClassCardGridProps<T> {
  items: readonly T[];
  page: number;
  total: number;
  limit: number;
  /** The pagination landmark's label, e.g. "My classes pages". */
  label: string;
  children: (item: T) => ReactNode;
}

/** One page of ClassImageCards in a responsive grid, with the page controls below. */
export function ClassCardGrid<T extends { _id: string }>({
  items,
  page,
  total,
  limit,
  label,
  children,
}: ClassCardGridProps<T>) {
  return (
    <>
      <ul className="grid gap-4 md:grid-cols-2 2xl:grid-cols-3">
        {items.map((item) => (
          <li key={item._id}>{children(item)}</li>
        ))}
      </ul>
      <PageControls page={page} total={total} limit={limit} label={label} />
    </>
  );
}
