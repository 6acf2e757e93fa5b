import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { notify } from '../../../lib/toast.ts';
import type { UpdateClassBody } from '@skillhive/shared/classes';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { classQueryOptions, useUpdateClass } from '../api/classes.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';
import { ClassForm } from './class-form.tsx';

/**
 * updateItem/:id (spec §2): pre-filled from GET /api/classes/:id. The current image is kept unless
 * a new one is uploaded, and the success message shows on {success: true} (DESIGN §1.7).
 */
export function UpdateClassPage({ classId }: { classId: string }) {
  const { user } = useAuth();
  const query = useQuery(classQueryOptions(classId));
  const update = useUpdateClass(classId);
  const navigate = useNavigate();

  return (
    <div className="flex flex-col gap-5">
      <title>Update Class — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Update class</h1>
        {query.data?.status === 'rejected' ? (
          <p className="text-muted">Saving sends this rejected class back for review.</p>
        ) : null}
      </div>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <FetchError what="class" error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <ClassForm
          key={query.data._id}
          teacher={{
            name: query.data.name || (user?.displayName ?? ''),
            email: query.data.email || (user?.email ?? ''),
          }}
          defaults={{
            title: query.data.title,
            price: query.data.price,
            description: query.data.description,
            image: query.data.image,
            category: query.data.category,
          }}
          submitLabel="Update Class"
          onSubmit={async (values) => {
            const body: UpdateClassBody = { ...values };
            if (values.image === query.data.image) delete body.image;
            const result = await update.mutateAsync(body);
            if (result?.success) {
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
