import { useNavigate } from 'react-router';
import { notify } from '../../../lib/toast.ts';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { useCreateClass } from '../api/classes.ts';
import { ClassForm } from './class-form.tsx';

/** addClasses (spec §2, §5): a new class starts pending until an admin accepts it. */
export function AddClassPage() {
  const { user } = useAuth();
  const create = useCreateClass();
  const navigate = useNavigate();
  return (
    <div className="flex flex-col gap-5">
      <title>Add a Class — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Add a class</h1>
        <p className="text-muted">An admin reviews every new class before students can enroll.</p>
      </div>
      <ClassForm
        teacher={{ name: user?.displayName ?? '', email: user?.email ?? '' }}
        submitLabel="Add Class"
        onSubmit={async (values) => {
          await create.mutateAsync(values);
          notify.success('Your class was added and is waiting for review.');
          navigate(paths.dashboard.myClass);
        }}
      />
    </div>
  );
}
