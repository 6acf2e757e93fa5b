import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CATEGORY_LABELS, type Category } from '@skillhive/shared/rules/constants';
import { formatPrice } from '@skillhive/shared/rules/money';
import { paths } from '../../config/paths.ts';

const FALLBACK_IMAGE = '/images/slides/web-developer.svg';

/**
 * What a buyer sees of a class on its page: picture, category, title, teacher, price and
 * description. The public class page is built from these parts, and the admin's review shows a
 * pending class or a proposed change with the same parts, so it is judged as it will be sold.
 */
export interface Listing {
  title: string;
  image: string;
  category: Category;
  price: number;
  description: string;
  teacherName: string;
}

/** The class's picture; a picture that fails to load gives way to the fallback slide. */
export function ClassFigure({ src }: { src: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  return (
    <figure className="overflow-hidden rounded-box bg-base-200">
      <img
        src={failedSrc === src ? FALLBACK_IMAGE : src}
        alt=""
        width={800}
        height={450}
        className="aspect-video h-full w-full object-cover"
        onError={() => setFailedSrc(src)}
      />
    </figure>
  );
}

/** Category (a catalogue link on the public page), title and teacher. */
export function ClassHeadline({
  listing,
  heading: Heading = 'h1',
  linkCategory = true,
}: {
  listing: Pick<Listing, 'category' | 'title' | 'teacherName'>;
  /** h1 on the class's own page; h3 inside a dialog that has its own heading. */
  heading?: 'h1' | 'h3';
  linkCategory?: boolean;
}) {
  const label = CATEGORY_LABELS[listing.category];
  return (
    <>
      <p className="text-sm font-semibold uppercase tracking-wide text-primary">
        {linkCategory ? (
          <Link to={`${paths.allClasses}?category=${listing.category}`} className="link-hover">
            {label}
          </Link>
        ) : (
          label
        )}
      </p>
      <Heading className="break-words text-3xl font-bold">{listing.title}</Heading>
      <p className="break-words text-muted">
        <span className="sr-only">Teacher: </span>
        {listing.teacherName}
      </p>
    </>
  );
}

export function ClassPrice({ price }: { price: number }) {
  return (
    <p className="text-3xl font-bold" data-testid="class-price">
      <span className="sr-only">Price: </span>
      {formatPrice(price)}
    </p>
  );
}

export function ClassAbout({ description, heading: Heading = 'h2' }: { description: string; heading?: 'h2' | 'h4' }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <Heading id={headingId} className="text-xl font-semibold">
        About this class
      </Heading>
      <p className="whitespace-pre-line break-words">{description}</p>
    </section>
  );
}

/** The listing alone, laid out as the class page lays it out, for a review before it is on sale. */
export function ListingPreview({ listing, children }: { listing: Listing; children?: ReactNode }) {
  return (
    <article className="flex min-w-0 flex-col gap-6" aria-label={`Preview of “${listing.title}”`}>
      <div className="grid min-w-0 gap-6 lg:grid-cols-[3fr_2fr]">
        <ClassFigure src={listing.image} />
        <div className="flex min-w-0 flex-col gap-3">
          <ClassHeadline listing={listing} heading="h3" linkCategory={false} />
          <ClassPrice price={listing.price} />
          {children}
        </div>
      </div>
      <ClassAbout description={listing.description} heading="h4" />
    </article>
  );
}
