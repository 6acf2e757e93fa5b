import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { Category } from '@skillhive/shared/rules/constants';
import type { CategoryCount } from '@skillhive/shared/contracts/classes';
import { categoryCountsQueryOptions } from '../api/category-counts.ts';
import { paths } from '../../../config/paths.ts';
import { useCarousel } from '../../../components/ui/use-carousel.ts';
import { CarouselArrowButton } from '../../../components/ui/carousel-buttons.tsx';
import { HERO_SLIDES } from '../hero-slides.ts';

const AUTOPLAY_MS = 6000;

/**
 * Where a slide leads: its category while that has classes (or before the counts
 * are known), else every class, so no slide leads to an empty page.
 */
export function slideTarget(
  slide: { category: Category; cta: string },
  counts: readonly CategoryCount[] | undefined,
): { link: string; cta: string } {
  const total = counts?.find((c) => c.category === slide.category)?.total;
  if (total === 0) return { link: paths.allClasses, cta: 'Browse all classes' };
  return { link: `${paths.allClasses}?category=${slide.category}`, cta: slide.cta };
}

export function HeroCarousel() {
  const counts = useQuery(categoryCountsQueryOptions()).data;
  const { viewportRef, selected, next, prev, scrollTo, onKeyDown, reducedMotion, api } = useCarousel();
  // Autoplay is off under prefers-reduced-motion; the user's own pause/play choice always wins.
  const [choice, setChoice] = useState<boolean | null>(null);
  const playing = choice ?? !reducedMotion;
  const [hovered, setHovered] = useState(false);

  useEffect(() => {
    if (!playing || hovered || !api) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') next();
    }, AUTOPLAY_MS);
    return () => window.clearInterval(timer);
  }, [playing, hovered, api, next]);

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Featured topics"
      className="relative overflow-hidden rounded-box bg-secondary"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setChoice(false)}
    >
      <div
        ref={viewportRef}
        className="overflow-hidden focus-visible:outline-offset-[-4px]"
        tabIndex={0}
        role="group"
        aria-label="Slides — use the left and right arrow keys to change slide"
        aria-live={playing ? 'off' : 'polite'}
        onKeyDown={onKeyDown}
        data-testid="hero-viewport"
      >
        <div className="flex touch-pan-y">
          {HERO_SLIDES.map((slide, index) => (
            <div
              key={slide.topic}
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${HERO_SLIDES.length}: ${slide.topic}`}
              data-active={index === selected}
              inert={index !== selected}
              className="relative h-[340px] min-w-0 flex-[0_0_100%] sm:h-[440px] lg:h-[550px]"
            >
              <img
                src={slide.image}
                alt={slide.alt}
                width={1200}
                height={550}
                loading={index === 0 ? 'eager' : 'lazy'}
                fetchPriority={index === 0 ? 'high' : 'auto'}
                decoding={index === 0 ? 'sync' : 'async'}
                className="absolute inset-0 h-full w-full object-cover object-[75%_50%]"
              />
              <div className="relative flex h-full flex-col justify-end gap-3 bg-secondary/85 p-6 pb-20 text-secondary-content sm:max-w-2xl sm:justify-center sm:bg-transparent sm:bg-linear-to-r sm:from-secondary sm:via-secondary/90 sm:to-secondary/0 sm:p-12 sm:pr-32">
                <p className="text-sm font-bold uppercase tracking-widest text-honey">{slide.topic}</p>
                <h2 className="text-2xl font-bold sm:text-3xl lg:text-4xl">{slide.title}</h2>
                <p className="max-w-md sm:text-lg">{slide.text}</p>
                <div>
                  <Link to={slideTarget(slide, counts).link} className="btn btn-accent mt-2">
                    {slideTarget(slide, counts).cta}
                  </Link>
                </div>
              </div>
            </div>
          ))}
        </div>
      </div>

      <div className="absolute bottom-4 right-4 flex items-center gap-2">
        <button
          type="button"
          className="btn btn-circle border-base-300 bg-base-100 text-base-content shadow"
          aria-label={playing ? 'Pause slideshow' : 'Play slideshow'}
          onClick={() => setChoice(!playing)}
          onFocus={(event) => event.stopPropagation()}
          data-testid="hero-play-toggle"
        >
          <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
            {playing ? (
              <path d="M8 5h3v14H8zM13 5h3v14h-3z" fill="currentColor" />
            ) : (
              <path d="M8 5l11 7-11 7z" fill="currentColor" />
            )}
          </svg>
        </button>
        <CarouselArrowButton direction="previous" label="Previous slide" onClick={prev} />
        <CarouselArrowButton direction="next" label="Next slide" onClick={next} />
      </div>

      <div className="absolute bottom-5 left-10 hidden gap-1 sm:flex">
        {HERO_SLIDES.map((slide, index) => (
          <button
            key={slide.topic}
            type="button"
            className="group flex h-6 min-w-6 items-center justify-center rounded-full"
            aria-label={`Show slide ${index + 1}: ${slide.topic}`}
            aria-current={index === selected ? 'true' : undefined}
            onClick={() => scrollTo(index)}
          >
            <span
              aria-hidden="true"
              className={`block h-3 rounded-full transition-all ${index === selected ? 'w-8 bg-honey' : 'w-3 bg-white/70 group-hover:bg-white'}`}
            />
          </button>
        ))}
      </div>
    </section>
  );
}
