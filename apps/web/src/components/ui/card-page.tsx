import type { ReactNode } from 'react';

interface CardPageProps {
  /** The document title. */
  title: string;
  /** The page's h1. */
  heading: ReactNode;
  /** A sentence under the heading. */
  intro?: ReactNode;
  children: ReactNode;
}

/** A page that is one narrow card: sign in, sign up, and where the account e-mails' links land. */
export function CardPage({ title, heading, intro, children }: CardPageProps) {
  return (
    <div className="mx-auto w-full max-w-md">
      <title>{title}</title>
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-5 p-6 sm:p-8">
          {intro ? (
            <div>
              <h1 className="text-2xl font-bold">{heading}</h1>
              <p className="mt-1 text-muted">{intro}</p>
            </div>
          ) : (
            <h1 className="text-2xl font-bold">{heading}</h1>
          )}
          {children}
        </div>
      </div>
    </div>
  );
}
