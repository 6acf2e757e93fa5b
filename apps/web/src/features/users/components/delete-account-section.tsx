import { lazy, Suspense, useState } from 'react';
import { useOpenedOnce } from '../../../components/ui/use-opened-once.ts';

/** The dialog (its password form and react-hook-form) is loaded when first opened, off the page's first load (decision 005). */
const DeleteAccountDialog = lazy(() =>
  import('./delete-account-dialog.tsx').then((module) => ({ default: module.DeleteAccountDialog })),
);

/** "Delete account" (decision 014): confirmed in a dialog with the password. */
export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  const dialogMounted = useOpenedOnce(open);
  return (
    <div className="flex flex-col items-start gap-3">
      <p>
        Deleting your account removes your profile and your reviews and signs you out on every device. It cannot be
        undone. Payment records are kept for accounting.
      </p>
      <button type="button" className="btn btn-error btn-outline" onClick={() => setOpen(true)}>
        Delete my account
      </button>
      {dialogMounted ? (
        <Suspense fallback={null}>
          <DeleteAccountDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
