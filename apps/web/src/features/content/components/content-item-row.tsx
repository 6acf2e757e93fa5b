import { useId, type ReactNode } from 'react';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { CONFIRM_PRESETS, useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { useDeleteItem, usePublishItem, useReorder, type ContentKind } from '../api/content.ts';

/** One session or material with its actions; moving swaps it with its neighbour. */
export function ItemRow(props: {
  classId: string;
  kind: ContentKind;
  id: string;
  title: string;
  published: boolean;
  ids: string[];
  index: number;
  onEdit?: () => void;
  children: ReactNode;
}) {
  const { classId, kind, id, title, published, ids, index } = props;
  const titleId = useId();
  const publish = usePublishItem(classId);
  const remove = useDeleteItem(classId);
  const reorder = useReorder(classId);
  const [confirm, dialog] = useConfirm();
  const fail = (what: string) => (error: unknown) => notify.error(errorMessage(error, `Could not ${what}.`));

  const move = (by: -1 | 1) => {
    const next = [...ids];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    reorder.mutate({ kind, ids: next }, { onError: fail('change the order') });
  };
  const busy = publish.isPending || remove.isPending || reorder.isPending;
  return (
    <li
      aria-labelledby={titleId}
      className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-3"
      data-testid={`${kind}-item`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span id={titleId} className="font-semibold break-words">
          {title}
        </span>
        <span className={`badge ${published ? 'badge-success' : 'badge-ghost'}`}>
          {published ? 'Published' : 'Draft'}
        </span>
      </div>
      <p className="text-sm break-words text-muted">{props.children}</p>
      <div className="flex flex-wrap gap-2">
        <BusyButton
          busy={publish.isPending}
          disabled={busy}
          className={`btn-sm ${published ? 'btn-outline' : 'btn-primary'}`}
          aria-describedby={titleId}
          onClick={() =>
            publish.mutate(
              { kind, id, published: !published },
              {
                onSuccess: () => notify.success(published ? 'Back to draft' : 'Published'),
                onError: fail('publish it'),
              },
            )
          }
        >
          {published ? 'Unpublish' : 'Publish'}
        </BusyButton>
        {props.onEdit ? (
          <button type="button" className="btn btn-sm btn-outline" aria-describedby={titleId} onClick={props.onEdit}>
            Edit
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          disabled={busy || index === 0}
          aria-describedby={titleId}
          onClick={() => move(-1)}
        >
          Move up
        </button>
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          disabled={busy || index === ids.length - 1}
          aria-describedby={titleId}
          onClick={() => move(1)}
        >
          Move down
        </button>
        <BusyButton
          busy={remove.isPending}
          disabled={busy}
          className="btn-sm btn-ghost text-error"
          aria-label={`Delete ${title}`}
          onClick={() =>
            void confirm(CONFIRM_PRESETS.delete).then((result) => {
              if (result === 'confirmed') remove.mutate({ kind, id }, { onError: fail('delete it') });
            })
          }
        >
          Delete
        </BusyButton>
      </div>
      {dialog}
    </li>
  );
}
