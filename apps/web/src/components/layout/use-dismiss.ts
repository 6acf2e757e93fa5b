import { useEffect, type RefObject } from 'react';

/** Closes a popup on Escape (returning focus to its trigger) or on a click outside it. */
export function useDismiss(
  open: boolean,
  close: () => void,
  container: RefObject<HTMLElement | null>,
  trigger: RefObject<HTMLElement | null>,
) {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        close();
        trigger.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (container.current && event.target instanceof Node && !container.current.contains(event.target)) close();
    };
    const onFocus = (event: FocusEvent) => {
      if (container.current && event.target instanceof Node && !container.current.contains(event.target)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('focusin', onFocus);
    };
  }, [open, close, container, trigger]);
}
