import { reviewsQueryOptions } from '../../features/reviews/api/get-reviews.ts';
import { loadRouteData, type PageLoaderArgs } from '../route-data.ts';
import { HeroCarousel } from '../../features/home/components/hero-carousel.tsx';
import { BecomeInstructor } from '../../features/home/components/become-instructor.tsx';
import { TrustedBy } from '../../features/home/components/trusted-by.tsx';
import { ReviewsSection } from '../../features/reviews/components/reviews-section.tsx';
import { SITE_PAGES } from '../routes.manifest.ts';

/** / (spec §2): carousel, instructor card, partner logos, and the reviews last. */
export function HomePage() {
  return (
    <>
      <title>{SITE_PAGES.home.title}</title>
      <h1 className="sr-only">SkillHive: learn practical skills from instructors around the world</h1>
      <div className="flex flex-col gap-16">
        <HeroCarousel />
        <BecomeInstructor />
        <TrustedBy />
        <ReviewsSection />
      </div>
    </>
  );
}

/** The reviews are part of the first paint (they are preloaded with the page, route-data.ts). */
export function loader(args: PageLoaderArgs) {
  return loadRouteData(reviewsQueryOptions(), args);
}

export { HomePage as Component };
