import { useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import useEmblaCarousel from 'embla-carousel-react';
import { usePrefersReducedMotion } from './use-prefers-reduced-motion.ts';

type CarouselOptions = NonNullable<Parameters<typeof useEmblaCarousel>[0]>;

/**
 * Embla with the behaviour both carousels need: previous/next that always wrap around (even
 * when Embla cannot loop because everything fits), arrow keys, the selected index for labels,
 * and instant jumps under prefers-reduced-motion.
 */
export function useCarousel(options: CarouselOptions = {}) {
  const [viewportRef, api] = useEmblaCarousel({ loop: true, align: 'start', ...options });
  const reducedMotion = usePrefersReducedMotion();
  const [selected, setSelected] = useState(0);
  const [snapCount, setSnapCount] = useState(0);

  useEffect(() => {
    if (!api) return;
    const onSelect = () => setSelected(api.selectedScrollSnap());
    const onInit = () => {
      setSnapCount(api.scrollSnapList().length);
      onSelect();
    };
    onInit();
    api.on('select', onSelect);
    api.on('reInit', onInit);
    return () => {
      api.off('select', onSelect);
      api.off('reInit', onInit);
    };
  }, [api]);

  const next = useCallback(() => {
    if (!api) return;
    if (api.canScrollNext()) api.scrollNext(reducedMotion);
    else api.scrollTo(0, reducedMotion);
  }, [api, reducedMotion]);

  const prev = useCallback(() => {
    if (!api) return;
    if (api.canScrollPrev()) api.scrollPrev(reducedMotion);
    else api.scrollTo(api.scrollSnapList().length - 1, reducedMotion);
  }, [api, reducedMotion]);

  const scrollTo = useCallback((index: number) => api?.scrollTo(index, reducedMotion), [api, reducedMotion]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.key === 'ArrowRight') {
        event.preventDefault();
        next();
      } else if (event.key === 'ArrowLeft') {
        event.preventDefault();
        prev();
      }
    },
    [next, prev],
  );

  return { viewportRef, api, selected, snapCount, next, prev, scrollTo, onKeyDown, reducedMotion };
}
