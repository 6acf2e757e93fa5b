import type { ClassStatus } from '@skillhive/shared/rules/constants';

/**
 * Above the teacher's editor while the class is not on sale: its sessions and materials can be
 * prepared already; students and visitors see what is published once an admin accepts the class.
 */
export function ReviewStatusNote({ status }: { status: ClassStatus }) {
  if (status === 'accepted') return null;
  const text =
    status === 'pending'
      ? 'This class is waiting for an admin’s review. Prepare its sessions and materials now: students and visitors see what you publish once the class is approved.'
      : status === 'rejected'
        ? 'This class was not approved: update it to send it for review again. Its sessions and materials stay here meanwhile.'
        : 'This class is not on sale. Its sessions and materials stay here.';
  return (
    <p role="status" className="alert alert-info alert-soft">
      {text}
    </p>
  );
}
