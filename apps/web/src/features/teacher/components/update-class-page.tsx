import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { notify } from '../../../lib/toast.ts';
import type { ClassFields } from '@skillhive/shared/contracts/classes';
import type { UpdateClassBody } from '@skillhive/shared/rules/class-form';
import { formatPrice } from '@skillhive/shared/rules/money';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import {
  managedClassQueryOptions,
  classRevisionQueryOptions,
  SENT_FOR_REVIEW_MESSAGE,
  useUpdateClass,
} from '../api/classes.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';
import { ClassForm } from './class-form.tsx';

/**
 * updateItem/:id (spec §2): pre-filled from GET /api/classes/:id. The current image is kept unless
 * a new one is uploaded, and the success message shows on {success: true} (DESIGN §1.7). An
 * accepted class is live: the form shows its pending changes, and saving sends them for review
 * while the approved version stays on sale (DESIGN §4).
 */
export function UpdateClassPage({ classId }: { classId: string }) {
  const { user } = useAuth();
  const query = useQuery(managedClassQueryOptions(user, classId));
  const isAccepted = query.data?.status === 'accepted';
  const revisionQuery = useQuery({ ...classRevisionQueryOptions(user, classId), enabled: isAccepted });
  const update = useUpdateClass(classId);
  const navigate = useNavigate();
  const revision = isAccepted ? (revisionQuery.data?.revision ?? null) : null;
  const pending = revision?.status === 'pending' ? revision : null;

  return (
    <div className="flex flex-col gap-5">
      <title>Update Class — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Update class</h1>
        {query.data?.status === 'rejected' ? (
          <p className="text-muted">Saving sends this rejected class back for review.</p>
        ) : null}
        {isAccepted && !pending ? (
          <p className="text-muted">
            This class is on sale: an admin reviews your changes before they replace the approved version.
          </p>
        ) : null}
      </div>
      {pending ? (
        <div role="status" className="rounded-box border border-warning bg-warning/10 p-4 text-sm">
          <p className="font-semibold">Changes pending review</p>
          <p>
            The form shows the changes you sent ({changedLabels(pending.proposed)}). The approved version stays on sale
            until an admin approves them; saving again updates the changes under review.
          </p>
        </div>
      ) : revision?.status === 'rejected' ? (
        <div role="status" className="rounded-box border border-error bg-error/10 p-4 text-sm">
          <p className="font-semibold">Your last changes were not approved</p>
          {revision.rejectionReason ? (
            <p>
              <span className="font-semibold">Reason: </span>
              {revision.rejectionReason}
            </p>
          ) : null}
        </div>
      ) : null}
      {query.isPending || (isAccepted && revisionQuery.isPending) ? (
        <LoadingState />
      ) : query.isError ? (
        <FetchError what="class" error={query.error} onRetry={() => void query.refetch()} />
      ) : revisionQuery.isError ? (
        <FetchError what="class" error={revisionQuery.error} onRetry={() => void revisionQuery.refetch()} />
      ) : (
        <ClassForm
          key={`${query.data._id}:${pending?.updatedAt ?? ''}`}
          teacher={{
            name: query.data.name || (user?.displayName ?? ''),
            email: query.data.email || (user?.email ?? ''),
          }}
          defaults={{
            title: pending?.proposed.title ?? query.data.title,
            price: pending?.proposed.price ?? query.data.price,
            description: pending?.proposed.description ?? query.data.description,
            image: pending?.proposed.image ?? query.data.image,
            category: pending?.proposed.category ?? query.data.category,
          }}
          submitLabel="Update Class"
          onSubmit={async (values) => {
            const body: UpdateClassBody = { ...values };
            if (values.image === query.data.image) delete body.image;
            const result = await update.mutateAsync(body);
            if (result?.pendingReview) {
              notify.success(SENT_FOR_REVIEW_MESSAGE);
              navigate(paths.dashboard.myClass);
            } else if (isAccepted) {
              // Set back to the approved values: nothing was sent, or the pending changes were withdrawn.
              if (result?.modifiedCount)
                notify.success('Your changes were withdrawn; the approved version stays on sale.');
              else notify.info('Nothing changed.');
              navigate(paths.dashboard.myClass);
            } else if (result?.success) {
              notify.success('Your class was updated successfully.');
              navigate(paths.dashboard.myClass);
            } else {
              notify.info('Nothing changed.');
            }
          }}
        />
      )}
    </div>
  );
}

const FIELD_LABELS: Record<keyof ClassFields, string> = {
  title: 'title',
  description: 'description',
  price: 'price',
  image: 'image',
  category: 'category',
};

function changedLabels(proposed: Partial<ClassFields>): string {
  return (Object.keys(FIELD_LABELS) as (keyof ClassFields)[])
    .filter((field) => proposed[field] !== undefined)
    .map((field) => (field === 'price' ? `price ${formatPrice(proposed.price!)}` : FIELD_LABELS[field]))
    .join(', ');
}
