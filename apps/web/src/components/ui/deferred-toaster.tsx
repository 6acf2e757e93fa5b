import { lazy, Suspense, useSyncExternalStore } from 'react';
import { TOAST_DURATION_MS } from '@skillhive/shared/rules/constants';
import { isToasterWanted, loadSonner, subscribeToaster } from '../../lib/toast.ts';

const Toaster = lazy(() => loadSonner().then((module) => ({ default: module.Toaster })));

/** sonner's <Toaster>, mounted (and downloaded) when the first toast is raised. */
export function DeferredToaster() {
  const wanted = useSyncExternalStore(subscribeToaster, isToasterWanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      {/* spec §9: toasts at the top end — below the sticky navbar, so they never cover the account menu. */}
      <Toaster
        position="top-right"
        duration={TOAST_DURATION_MS}
        richColors
        closeButton
        offset={{ top: 80, right: 16 }}
        mobileOffset={{ top: 72, left: 12, right: 12 }}
      />
    </Suspense>
  );
}
