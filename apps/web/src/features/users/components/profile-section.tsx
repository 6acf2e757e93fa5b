import { useId, type ReactNode } from 'react';

/** One card of the profile page, named by its heading. */
export function ProfileSection({
  title,
  description,
  danger = false,
  children,
}: {
  title: string;
  description?: ReactNode;
  /** The danger zone: outlined in the error colour. */
  danger?: boolean;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={`card border bg-base-100 shadow-sm ${danger ? 'border-error/60' : 'border-base-300'}`}
    >
      <div className="card-body gap-4 p-5 sm:p-6">
        <div className="flex flex-col gap-1">
          <h2 id={headingId} className="text-xl font-semibold">
            {title}
          </h2>
          {description ? <div className="text-muted">{description}</div> : null}
        </div>
        {children}
      </div>
    </section>
  );
}
