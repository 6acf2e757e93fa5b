import { useId, type FormEventHandler, type ReactNode } from 'react';
import { useModalDialog } from './use-modal-dialog.ts';

interface FormDialogProps {
  open: boolean;
  /** The dialog's heading, which also names it for screen readers. */
  title: ReactNode;
  /** A sentence under the heading that describes the dialog (aria-describedby). */
  description?: ReactNode;
  /** Escape or Cancel: the owner decides whether to close (`open` false). */
  onCancel: () => void;
  /** After the dialog closed, however it closed (reset the form here). */
  onClose?: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** Extra classes for the box, e.g. a wider `max-w-3xl`. */
  className?: string;
  children: ReactNode;
}

/**
 * A modal <dialog> holding one form (useModalDialog: focus moves in, Escape cancels, focus goes
 * back to the opener), a bottom sheet on phones and centred from `sm` up. The form's fields and
 * its `modal-action` buttons are the children.
 */
export function FormDialog({
  open,
  title,
  description,
  onCancel,
  onClose,
  onSubmit,
  className = '',
  children,
}: FormDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const ref = useModalDialog(open);
  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClose={onClose}
    >
      <form className={`modal-box flex flex-col gap-3 ${className}`} noValidate onSubmit={onSubmit}>
        <h2 id={titleId} className="break-words text-xl font-bold">
          {title}
        </h2>
        {description ? <p id={descriptionId}>{description}</p> : null}
        {children}
      </form>
    </dialog>
  );
}
