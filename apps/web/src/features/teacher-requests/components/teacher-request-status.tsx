import { Link } from 'react-router';
import { CATEGORY_LABELS, EXPERIENCE_LABELS } from '@skillhive/shared/rules/constants';
import type { TeacherRequest } from '@skillhive/shared/contracts/teacher-requests';

const STATUS_COPY = {
  pending: {
    badge: 'badge-warning',
    label: 'Pending',
    title: 'Your application is under review',
    text: 'Thanks for applying! An admin will review your application soon. You can come back here any time to check its status.',
  },
  approved: {
    badge: 'badge-success',
    label: 'Approved',
    title: 'You are a SkillHive teacher!',
    text: 'Your application was approved. Head to your dashboard to add your first class.',
  },
  rejected: {
    badge: 'badge-error',
    label: 'Rejected',
    title: 'Your application was not approved',
    text: 'This time your application was not approved. You are welcome to apply again with more detail about your experience.',
  },
} as const;

interface TeacherRequestStatusProps {
  request: TeacherRequest;
  dashboardPath: string;
  onApplyAgain: () => void;
}

/** The applicant's view of spec §4's teacher request: pending → approved | rejected. */
export function TeacherRequestStatus({ request, dashboardPath, onApplyAgain }: TeacherRequestStatusProps) {
  const copy = STATUS_COPY[request.status];
  return (
    <section
      aria-labelledby="request-status-title"
      className="flex flex-col gap-4"
      data-testid="teacher-request-status"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="request-status-title" className="text-xl font-bold">
          {copy.title}
        </h2>
        <span className={`badge ${copy.badge} badge-lg`}>
          <span className="sr-only">Status: </span>
          {copy.label}
        </span>
      </div>
      <p>{copy.text}</p>
      <dl className="grid gap-x-6 gap-y-2 rounded-box bg-base-200 p-4 sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">Title</dt>
        <dd>{request.title}</dd>
        <dt className="font-semibold">Category</dt>
        <dd>{CATEGORY_LABELS[request.category] ?? request.category}</dd>
        <dt className="font-semibold">Experience</dt>
        <dd>{EXPERIENCE_LABELS[request.experience] ?? request.experience}</dd>
        <dt className="font-semibold">Submitted</dt>
        <dd>
          <time dateTime={request.createdAt}>
            {new Date(request.createdAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}
          </time>
        </dd>
      </dl>
      {request.status === 'approved' ? (
        <Link to={dashboardPath} className="btn btn-primary self-start">
          Go to your dashboard
        </Link>
      ) : null}
      {request.status === 'rejected' ? (
        <button type="button" className="btn btn-primary self-start" onClick={onApplyAgain}>
          Apply again
        </button>
      ) : null}
    </section>
  );
}
