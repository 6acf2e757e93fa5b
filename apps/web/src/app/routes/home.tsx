import { HeroCarousel } from '../../features/home/components/hero-carousel.tsx';
import { BecomeInstructor } from '../../features/home/components/become-instructor.tsx';
import { TrustedBy } from '../../features/home/components/trusted-by.tsx';
import { ReviewsSection } from '../../features/reviews/components/reviews-section.tsx';

/** / (spec §2): carousel, instructor card, partner logos, and the reviews last. */
export function HomePage() {
  return (
    <>
      <title>SkillHive — learn and teach practical skills</title>
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

export { HomePage as Component };
