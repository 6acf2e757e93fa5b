import type * as SonnerModule from './sonner.ts';
import { TOAST_DURATION_MS } from '@skillhive/shared/rules/constants';

/**
 * Toasts (sonner) are loaded on demand: nothing on the landing page needs them before the user
 * acts, and keeping them out of the first load keeps / under its JavaScript budget.
 */
type Sonner = typeof SonnerModule;

let sonner: Promise<Sonner> | null = null;
export function loadSonner(): Promise<Sonner> {
  sonner ??= import('./sonner.ts');
  return sonner;
}

const listeners = new Set<() => void>();
let toasterWanted = false;

/** The <Toaster> mounts once this is true, i.e. when the first toast is raised. */
export function requestToaster(): void {
  if (toasterWanted) return;
  toasterWanted = true;
  listeners.forEach((listener) => listener());
}
export function subscribeToaster(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export function isToasterWanted(): boolean {
  return toasterWanted;
}

interface NotifyOptions {
  description?: string;
  duration?: number;
}

function show(kind: 'success' | 'error' | 'info', message: string, options: NotifyOptions = {}) {
  requestToaster();
  void loadSonner().then(({ toast }) => {
    // sonner replays toasts created before its <Toaster> subscribes.
    toast[kind](message, {
      // spec §9: success toasts stay 1500 ms; errors stay longer so they can be read.
      duration: options.duration ?? (kind === 'error' ? TOAST_DURATION_MS * 4 : TOAST_DURATION_MS),
      ...(options.description ? { description: options.description } : {}),
    });
  });
}

export const notify = {
  success: (message: string, options?: NotifyOptions) => show('success', message, options),
  error: (message: string, options?: NotifyOptions) => show('error', message, options),
  info: (message: string, options?: NotifyOptions) => show('info', message, options),
};
