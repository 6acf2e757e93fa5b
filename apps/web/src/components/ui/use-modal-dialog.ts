import { useEffect, useRef } from 'react';

/**
 * Opens a <dialog> as a modal while `open` is true (the browser's top layer: focus moves in,
 * Escape cancels) and, when it closes, gives focus back to the element that opened it. Focus goes
 * to the element marked `data-initial-focus` if the dialog has one (a confirmation's least
 * destructive button), else where the browser puts it (the first focusable element).
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      dialog.querySelector<HTMLElement>('[data-initial-focus]')?.focus();
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
      opener.current?.focus();
      opener.current = null;
    }
  }, [open]);
  return ref;
}
