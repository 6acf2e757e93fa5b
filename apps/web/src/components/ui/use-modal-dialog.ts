import { useEffect, useRef } from 'react';

/**
 * Opens a <dialog> as a modal while `open` is true (the browser's top layer: focus moves in,
 * Escape cancels) and, when it closes, gives focus back to the element that opened it.
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
      opener.current?.focus();
    }
  }, [open]);
  return ref;
}
