import { describe, expect, it } from 'vitest';
import { HERO_SLIDES } from '../hero-slides.ts';
import { slideTarget } from './hero-carousel.tsx';

describe('hero slide links', () => {
  it('lead to a category, never to a free-text search', () => {
    for (const slide of HERO_SLIDES)
      expect(slideTarget(slide, undefined).link).toMatch(/^\/allClassAllowed\?category=[a-z-]+$/);
  });

  it('lead to every class instead when their category has none', () => {
    const counts = [
      { category: 'digital-marketing', total: 0 },
      { category: 'video-editing', total: 3 },
    ] as const;
    const seo = HERO_SLIDES.find((slide) => slide.topic === 'SEO')!;
    expect(slideTarget(seo, counts)).toEqual({ link: '/allClassAllowed', cta: 'Browse all classes' });
    const video = HERO_SLIDES.find((slide) => slide.topic === 'Video editing')!;
    expect(slideTarget(video, counts)).toEqual({
      link: '/allClassAllowed?category=video-editing',
      cta: 'Explore video editing classes',
    });
  });
});
