import { lazy, Suspense, type ComponentProps } from 'react';
import { useOpenedOnce } from './use-opened-once.ts';

const ReasonDialog = lazy(() => import('./reason-dialog.tsx').then((module) => ({ default: module.ReasonDialog })));

/**
 * ReasonDialog, downloaded (with react-hook-form and its schema) when first opened and mounted from
 * then on, so closing still hands focus back.
 */
export function ReasonDialogOnDemand(props: ComponentProps<typeof ReasonDialog>) {
  const mounted = useOpenedOnce(props.open);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <ReasonDialog {...props} />
    </Suspense>
  );
}
