import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { EmblaCarouselType, EmblaOptionsType } from 'embla-carousel';
import { usePrefersReducedMotion } from './use-prefers-reduced-motion.ts';

/**
 * When Embla starts — and its code is downloaded: nothing of it is in a page's first load (about
 * 7 KB gzip off the home page). It measures the slides as it starts, which costs a whole-page
 * layout when that happens in the task that first renders the page (Lighthouse counted it as
 * blocking time); until it starts, the slides show as a plain row with the first one in view.
 * - `painted`: right after the first frame that shows the carousel (the layout is then done);
 * - `near-viewport`: when the carousel comes within one viewport height of being seen — for a
 *   carousel below the fold, which may never need to move.
 * A control used before then starts it at once, and is carried out when it has started.
 */
export type CarouselStart = 'painted' | 'near-viewport';

function useStartSignal(node: HTMLElement | null, when: CarouselStart, started: boolean, start: () => void) {
  useEffect(() => {
    if (!node || started) return;
    if (when === 'near-viewport' && typeof IntersectionObserver === 'function') {
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) start();
        },
        { rootMargin: '100% 0px' },
      );
      observer.observe(node);
      return () => observer.disconnect();
    }
    let timer: number | undefined;
    const frame = window.requestAnimationFrame(() => {
      timer = window.setTimeout(start, 0);
    });
    return () => {
      window.cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [node, when, started, start]);
}

/**
 * Embla on the viewport once `started`: its code is imported then, the carousel made on the
 * viewport element and destroyed with it (and made again if the options change: plain values
 * only). If the code cannot be downloaded (offline), the slides stay the plain row they render
 * as, first slide in view.
 */
function useEmbla(viewport: HTMLElement | null, started: boolean, options: EmblaOptionsType) {
  const [api, setApi] = useState<EmblaCarouselType | undefined>(undefined);
  const optionsKey = JSON.stringify(options);
  useEffect(() => {
    if (!started || !viewport) return;
    let carousel: EmblaCarouselType | undefined;
    let gone = false;
    import('embla-carousel')
      .then(({ default: EmblaCarousel }) => {
        if (gone) return;
        carousel = EmblaCarousel(viewport, JSON.parse(optionsKey) as EmblaOptionsType);
        setApi(carousel);
      })
      .catch(() => undefined);
    return () => {
      gone = true;
      carousel?.destroy();
      setApi(undefined);
    };
  }, [started, viewport, optionsKey]);
  return api;
}

/**
 * Embla with the behaviour both carousels need: previous/next that always wrap around (even
 * when Embla cannot loop because everything fits), arrow keys, the selected index for labels,
 * and instant jumps under prefers-reduced-motion. Embla starts as `start` says.
 */
export function useCarousel(options: EmblaOptionsType = {}, start: CarouselStart = 'painted') {
  const [viewport, viewportRef] = useState<HTMLElement | null>(null);
  const [started, setStarted] = useState(false);
  const startNow = useCallback(() => setStarted(true), []);
  useStartSignal(viewport, start, started, startNow);
  const api = useEmbla(viewport, started, { loop: true, align: 'start', ...options });
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

  /** A control used before Embla has started, carried out once it has (after the listeners above). */
  const pending = useRef<((carousel: EmblaCarouselType) => void) | null>(null);
  useEffect(() => {
    if (!api || !pending.current) return;
    const action = pending.current;
    pending.current = null;
    action(api);
  }, [api]);
  const run = useCallback(
    (action: (carousel: EmblaCarouselType) => void) => {
      if (api) {
        action(api);
        return;
      }
      pending.current = action;
      startNow();
    },
    [api, startNow],
  );

  const next = useCallback(
    () =>
      run((carousel) => {
        if (carousel.canScrollNext()) carousel.scrollNext(reducedMotion);
        else carousel.scrollTo(0, reducedMotion);
      }),
    [run, reducedMotion],
  );

  const prev = useCallback(
    () =>
      run((carousel) => {
        if (carousel.canScrollPrev()) carousel.scrollPrev(reducedMotion);
        else carousel.scrollTo(carousel.scrollSnapList().length - 1, reducedMotion);
      }),
    [run, reducedMotion],
  );

  const scrollTo = useCallback(
    (index: number) => run((carousel) => carousel.scrollTo(index, reducedMotion)),
    [run, reducedMotion],
  );

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
