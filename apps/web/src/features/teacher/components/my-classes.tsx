import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { notify } from '../../../lib/toast.ts';
import type { ClassItem } from '@skillhive/shared/contracts/classes';
import { formatPrice } from '@skillhive/shared/rules/money';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { TEACHER_CLASSES_PAGE_SIZE, teacherClassesQueryOptions, useDeleteClass } from '../api/classes.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';
import { usePageParam } from '../../../components/ui/page-controls.tsx';
import { confirmDeleteOf, useConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { ClassStatusBadge } from './class-status-badge.tsx';
import { ClassCardGrid, ClassImageCard } from '../../../components/ui/class-image-card.tsx';
import { countOf } from '../../../lib/plural.ts';

/** myClass (spec §2): the teacher's classes as cards, with Update, Delete and See Details. */
export function MyClasses() {
  const { user } = useAuth();
  const page = usePageParam();
  const query = useQuery(teacherClassesQueryOptions(user, page));
  const remove = useDeleteClass();
  const [confirm, dialog] = useConfirm();

  const deleteClass = async (item: ClassItem) => {
    if ((await confirm(confirmDeleteOf(`"${item.title}"`))) !== 'confirmed') return;
    remove.mutate(item._id, {
      onSuccess: () => notify.success(`"${item.title}" has been deleted.`),
      onError: (error) => notify.error(errorMessage(error)),
    });
  };

  return (
    <div className="flex flex-col gap-5">
      <title>My Classes — SkillHive</title>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold sm:text-3xl">My classes</h1>
          <p className="text-muted">{query.data ? countOf(query.data.total, 'class', 'classes') : '\u00a0'}</p>
        </div>
        <Link to={paths.dashboard.addClasses} className="btn btn-primary">
          Add a class
        </Link>
      </div>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        // spec §8 spells this message for profile and my-class failures.
        <FetchError what="profile" error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <p className="rounded-box bg-base-200 p-6">You have not added a class yet.</p>
      ) : (
        <ClassCardGrid
          items={query.data.items}
          page={page}
          total={query.data.total}
          limit={TEACHER_CLASSES_PAGE_SIZE}
          label="My classes pages"
        >
          {(item) => (
            <TeacherClassCard item={item} deleting={remove.isPending} onDelete={() => void deleteClass(item)} />
          )}
        </ClassCardGrid>
      )}
      {dialog}
    </div>
  );
}

function TeacherClassCard({ item, deleting, onDelete }: { item: ClassItem; deleting: boolean; onDelete: () => void }) {
  const titleId = useId();
  const navigate = useNavigate();
  const accepted = item.status === 'accepted';
  return (
    <ClassImageCard
      titleId={titleId}
      title={item.title}
      image={item.image}
      badge={<ClassStatusBadge status={item.status} />}
    >
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 text-sm">
        <dt className="font-semibold">Name</dt>
        <dd className="break-words">{item.name}</dd>
        <dt className="font-semibold">Email</dt>
        <dd className="break-all">{item.email}</dd>
        <dt className="font-semibold">Price</dt>
        <dd>{formatPrice(item.price)}</dd>
      </dl>
      <p className="grow-0 line-clamp-3 text-sm">{item.description}</p>
      {item.revision?.status === 'pending' ? (
        <p className="grow-0 text-sm">
          <span className="badge badge-warning">Changes pending review</span>
          <span className="mt-1 block text-muted">
            The approved version stays on sale until an admin approves them.
          </span>
        </p>
      ) : item.revision?.status === 'rejected' ? (
        <p className="grow-0 rounded-field bg-error/10 p-2 text-sm">
          <span className="font-semibold">Changes not approved</span>
          {item.revision.rejectionReason ? `: ${item.revision.rejectionReason}` : null}
        </p>
      ) : null}
      {item.status === 'rejected' && item.rejectionReason ? (
        <p className="grow-0 rounded-field bg-error/10 p-2 text-sm">
          <span className="font-semibold">Rejection reason: </span>
          {item.rejectionReason}
        </p>
      ) : null}
      <div className="card-actions mt-auto flex-wrap pt-2">
        <Link to={paths.dashboard.updateItem(item._id)} className="btn btn-sm btn-outline" aria-describedby={titleId}>
          Update
        </Link>
        <button
          type="button"
          className="btn btn-sm btn-error btn-outline"
          disabled={deleting}
          aria-describedby={titleId}
          onClick={onDelete}
        >
          Delete
        </button>
        <button
          type="button"
          className="btn btn-sm btn-primary"
          disabled={!accepted}
          title={accepted ? undefined : 'Available once an admin accepts the class'}
          aria-describedby={titleId}
          onClick={() => navigate(paths.dashboard.myClassDetails(item._id))}
        >
          See Details
        </button>
        {/* The editor is open from the moment the class exists: sessions and materials are prepared as drafts during review. */}
        <Link to={paths.dashboard.prepareClass(item._id)} className="btn btn-sm btn-outline" aria-describedby={titleId}>
          Sessions and materials
        </Link>
      </div>
    </ClassImageCard>
  );
}
