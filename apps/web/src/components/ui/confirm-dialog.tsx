import { useCallback, useId, useState, type ReactNode } from 'react';
import { useModalDialog } from './use-modal-dialog.ts';

export type ConfirmResult = 'confirmed' | 'denied' | 'dismissed';

export interface ConfirmOptions {
  title: string;
  text?: string;
  /** spec §9 default button texts: OK, No, Cancel. */
  confirmButtonText?: string;
  denyButtonText?: string;
  cancelButtonText?: string;
  showDenyButton?: boolean;
  showCancelButton?: boolean;
  /** Styles the confirm button as destructive. */
  danger?: boolean;
}

export const CONFIRM_DEFAULTS = {
  confirmButtonText: 'OK',
  denyButtonText: 'No',
  cancelButtonText: 'Cancel',
} as const;

/** The confirmations spec §8 names, with their exact texts. */
export const CONFIRM_PRESETS = {
  delete: {
    title: 'Are you sure?',
    text: "You won't be able to revert this!",
    confirmButtonText: 'Yes, delete it!',
    danger: true,
  },
  notLoggedIn: {
    title: 'You are not Logged In',
    text: 'Please login to add to the cart',
    confirmButtonText: 'Yes, login!',
  },
} as const satisfies Record<string, ConfirmOptions>;

/**
 * spec §8's delete confirmation, naming what goes (DESIGN §1.12: "Delete John McCarthy?"); its
 * warning and button keep the spec's texts.
 */
export function confirmDeleteOf(subject: string): ConfirmOptions {
  return { ...CONFIRM_PRESETS.delete, title: `Delete ${subject}?` };
}

/** Making someone an admin gives them every moderation power: asked first, naming them. */
export function confirmMakeAdminOf(name: string): ConfirmOptions {
  return {
    title: `Make ${name} admin?`,
    text: 'They will be able to moderate classes, decide teacher requests and manage every user.',
    confirmButtonText: 'Yes, make admin',
  };
}

/** Approving an application makes its author a teacher who can publish classes and take money. */
export function confirmApproveTeacherOf(name: string): ConfirmOptions {
  return {
    title: `Make ${name} a teacher?`,
    text: 'They will be able to publish classes for review and sell them on SkillHive.',
    confirmButtonText: 'Yes, approve',
  };
}

/** Approving a refund gives money back and ends the student's access at once: asked first, naming both. */
export function confirmApproveRefundOf(amount: string, title: string, student: string): ConfirmOptions {
  return {
    title: `Refund ${amount} for “${title}”?`,
    text: `${student} gets ${amount} back and loses access to the class at once.`,
    confirmButtonText: 'Yes, refund',
  };
}

interface ConfirmDialogProps {
  open: boolean;
  options: ConfirmOptions;
  onClose: (result: ConfirmResult) => void;
}

/**
 * A real modal <dialog>: focus moves in (to the least destructive button), stays trapped by the
 * browser's top layer, Escape or a backdrop click dismisses, and focus returns to the opener.
 */
export function ConfirmDialog({ open, options, onClose }: ConfirmDialogProps) {
  const ref = useModalDialog(open);
  const titleId = useId();
  const textId = useId();
  const {
    title,
    text,
    confirmButtonText = CONFIRM_DEFAULTS.confirmButtonText,
    denyButtonText = CONFIRM_DEFAULTS.denyButtonText,
    cancelButtonText = CONFIRM_DEFAULTS.cancelButtonText,
    showDenyButton = false,
    showCancelButton = true,
    danger = false,
  } = options;

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      aria-describedby={text ? textId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose('dismissed');
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose('dismissed');
      }}
    >
      <div className="modal-box">
        <h2 id={titleId} className="text-xl font-bold">
          {title}
        </h2>
        {text ? (
          <p id={textId} className="py-3">
            {text}
          </p>
        ) : null}
        <div className="modal-action flex-wrap">
          {showCancelButton ? (
            <button type="button" className="btn btn-ghost" data-initial-focus onClick={() => onClose('dismissed')}>
              {cancelButtonText}
            </button>
          ) : null}
          {showDenyButton ? (
            <button type="button" className="btn btn-outline" onClick={() => onClose('denied')}>
              {denyButtonText}
            </button>
          ) : null}
          <button
            type="button"
            className={`btn ${danger ? 'btn-error' : 'btn-primary'}`}
            {...(showCancelButton ? {} : { 'data-initial-focus': true })}
            onClick={() => onClose('confirmed')}
          >
            {confirmButtonText}
          </button>
        </div>
      </div>
    </dialog>
  );
}

/**
 * `const [confirm, dialog] = useConfirm()`; render `dialog`, then
 * `if ((await confirm(CONFIRM_PRESETS.delete)) === 'confirmed') …`.
 */
export function useConfirm(): [(options: ConfirmOptions) => Promise<ConfirmResult>, ReactNode] {
  const [state, setState] = useState<{ options: ConfirmOptions; resolve: (result: ConfirmResult) => void } | null>(
    null,
  );
  const [open, setOpen] = useState(false);

  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<ConfirmResult>((resolve) => {
        setState({ options, resolve });
        setOpen(true);
      }),
    [],
  );

  const dialog = state ? (
    <ConfirmDialog
      open={open}
      options={state.options}
      onClose={(result) => {
        setOpen(false);
        state.resolve(result);
      }}
    />
  ) : null;

  return [confirm, dialog];
}
