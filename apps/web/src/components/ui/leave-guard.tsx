import { createContext, useCallback, useContext, useEffect, useId, useState, type ReactNode } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog, type ConfirmOptions } from './confirm-dialog.tsx';

/** What a person is asked before a link or Back takes them away from edits they have not saved. */
export const LEAVE_WITH_UNSAVED_EDITS: ConfirmOptions = {
  title: 'Leave this page?',
  text: 'Your changes have not been saved. If you leave, they are lost.',
  confirmButtonText: 'Leave',
  cancelButtonText: 'Stay',
  danger: true,
};

/**
 * While `unsaved` is true, a navigation to another page waits for the person's answer (React
 * Router's `useBlocker`, decision 024): Stay keeps them here with their edits, Leave goes on.
 * A change of query string or #anchor on the same page is not blocked. Returns the dialog to render.
 * The router supports one blocker at a time: a page with several forms uses `LeaveGuard`.
 */
export function useLeaveGuard(unsaved: boolean): ReactNode {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname,
  );
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      options={LEAVE_WITH_UNSAVED_EDITS}
      onClose={(result) => (result === 'confirmed' ? blocker.proceed?.() : blocker.reset?.())}
    />
  );
}

type ReportUnsaved = (form: string, unsaved: boolean) => void;

const UnsavedEditsContext = createContext<ReportUnsaved | null>(null);

/**
 * One leave guard for the forms below it: a navigation is blocked while any of them reports unsaved
 * edits. Inside another LeaveGuard it adds nothing, its forms report to the outer one: the router
 * keeps one blocker at a time, so a page with two guarded editors wraps both in one guard.
 */
export function LeaveGuard({ children }: { children: ReactNode }) {
  if (useContext(UnsavedEditsContext)) return children;
  return <OuterLeaveGuard>{children}</OuterLeaveGuard>;
}

function OuterLeaveGuard({ children }: { children: ReactNode }) {
  const [unsaved, setUnsaved] = useState<ReadonlySet<string>>(() => new Set());
  const report = useCallback<ReportUnsaved>(
    (form, isUnsaved) =>
      setUnsaved((current) => {
        if (current.has(form) === isUnsaved) return current;
        const next = new Set(current);
        if (isUnsaved) next.add(form);
        else next.delete(form);
        return next;
      }),
    [],
  );
  const dialog = useLeaveGuard(unsaved.size > 0);
  return (
    <UnsavedEditsContext.Provider value={report}>
      {children}
      {dialog}
    </UnsavedEditsContext.Provider>
  );
}

/** A form under a `LeaveGuard` says whether it holds unsaved edits (a form that goes away holds none). */
export function useUnsavedEdits(unsaved: boolean): void {
  const report = useContext(UnsavedEditsContext);
  const form = useId();
  useEffect(() => {
    if (!report) return undefined;
    report(form, unsaved);
    return () => report(form, false);
  }, [report, form, unsaved]);
}
