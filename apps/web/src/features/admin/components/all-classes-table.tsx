import { lazy, Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { notify } from '../../../lib/toast.ts';
import type { ClassItem } from '@skillhive/shared/contracts/classes';
import type { ClassStatus } from '@skillhive/shared/rules/constants';
import { paths } from '../../../config/paths.ts';
import { errorMessage, isApiError } from '../../../lib/api-client.ts';
import {
  ADMIN_PAGE_SIZE,
  CLASS_FILTERS,
  adminClassesQueryOptions,
  parseSearch,
  parseStatus,
  useDecideClass,
} from '../api/admin.ts';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { ClassRevisionsSection } from './class-revisions-section.tsx';
import { DecisionButtons } from './decision-buttons.tsx';
import { useOpenedOnce } from '../../../components/ui/use-opened-once.ts';
import { StatusFilter } from './status-filter.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { FallbackImage } from '../../../components/ui/fallback-image.tsx';
import { countOf } from '../../../lib/plural.ts';

/** The reject dialog (a reason form) is loaded when first opened, off the page's first load (decision 005). */
const RejectClassDialog = lazy(() =>
  import('./reject-class-dialog.tsx').then((module) => ({ default: module.RejectClassDialog })),
);
const ClassReviewDialog = lazy(() =>
  import('./class-review-dialog.tsx').then((module) => ({ default: module.ClassReviewDialog })),
);

const STATUS_LABELS: Record<ClassStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
  archived: 'Archived',
  hidden: 'Hidden',
};
const STATUS_BADGES: Record<ClassStatus, string> = {
  pending: 'badge-warning',
  accepted: 'badge-success',
  rejected: 'badge-error',
  archived: 'badge-neutral',
  hidden: 'badge-error',
};

/**
 * allClasses (spec §2, §4): every class with approve/reject while pending, and Review, which shows
 * a pending class as its page will (ClassReviewDialog); the progress button opens
 * seeProgressDetails, so it is enabled for accepted classes only (spec §2 notes: progress is
 * reachable only when accepted). Above it, the changes to accepted classes that wait for review
 * (DESIGN §4).
 */
export function AllClassesTable() {
  const [search] = useSearchParams();
  const page = usePageParam();
  const status = parseStatus(search.get('status'), CLASS_FILTERS);
  const q = parseSearch(search.get('q'));
  const user = useUserScope();
  const query = useQuery(adminClassesQueryOptions(user, { page, status, q }));
  const decide = useDecideClass();
  const navigate = useNavigate();
  const [rejecting, setRejecting] = useState<ClassItem | null>(null);
  const rejectDialogMounted = useOpenedOnce(rejecting !== null);
  const [reviewing, setReviewing] = useState<ClassItem | null>(null);
  const reviewDialogMounted = useOpenedOnce(reviewing !== null);

  const approve = (item: ClassItem) =>
    decide.mutate(
      { id: item._id, decision: 'approve', version: item.version ?? '' },
      {
        onSuccess: () => {
          setReviewing(null);
          notify.success(`"${item.title}" is accepted.`);
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 409) setReviewing(null);
          notify.error(errorMessage(error));
        },
      },
    );

  const reject = (item: ClassItem, reason: string) =>
    decide.mutate(
      { id: item._id, decision: 'reject', version: item.version ?? '', ...(reason ? { reason } : {}) },
      {
        onSuccess: () => {
          setRejecting(null);
          setReviewing(null);
          notify.success(`"${item.title}" was rejected.`);
        },
        onError: (error) => {
          // Changed or decided meanwhile (decision 027): the dialog closes on the reloaded list.
          if (isApiError(error) && error.status === 409) {
            setRejecting(null);
            setReviewing(null);
          }
          notify.error(errorMessage(error));
        },
      },
    );

  return (
    <div className="flex flex-col gap-5">
      <title>All Classes — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">All classes</h1>
        <p className="text-muted">{query.data ? countOf(query.data.total, 'class', 'classes') : '\u00a0'}</p>
      </div>
      <ClassRevisionsSection />
      <StatusFilter
        statuses={CLASS_FILTERS}
        labels={STATUS_LABELS}
        value={status}
        search={q}
        searchLabel="Search by title, description or teacher"
      />
      <PagedQueryState query={query} what="classes" empty="No classes here.">
        {(data) => (
          <>
            <DataTable label="Classes" columns={['Title', 'Image', 'Email', 'Description', 'Progress', 'Actions']}>
              {data.items.map((item) => {
                const pending = item.status === 'pending';
                return (
                  <tr key={item._id}>
                    <th scope="row" className="min-w-40 font-medium">
                      {item.title}
                      {/* The status sits with the title, keeping the table narrow enough to show its actions. */}
                      <span className={`badge badge-sm mt-1 flex w-fit ${STATUS_BADGES[item.status]}`}>
                        {STATUS_LABELS[item.status]}
                      </span>
                      {item.status === 'rejected' && item.rejectionReason ? (
                        <span className="mt-1 block text-sm font-normal text-muted">{item.rejectionReason}</span>
                      ) : null}
                    </th>
                    <td>
                      <FallbackImage
                        src={item.image}
                        alt=""
                        width={96}
                        height={54}
                        className="h-14 w-24 max-w-none rounded object-cover"
                      />
                    </td>
                    <td className="whitespace-nowrap">{item.email}</td>
                    <td className="min-w-48">
                      <p className="line-clamp-3">{item.description}</p>
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn btn-sm btn-outline"
                        disabled={item.status !== 'accepted'}
                        aria-label={`Progress of ${item.title}`}
                        onClick={() => navigate(paths.dashboard.seeProgressDetails(item._id))}
                      >
                        Progress
                      </button>
                    </td>
                    <td>
                      {pending ? (
                        <button
                          type="button"
                          className="btn btn-sm btn-primary mb-2 whitespace-nowrap"
                          aria-label={`Review ${item.title}`}
                          onClick={() => setReviewing(item)}
                        >
                          Review
                        </button>
                      ) : null}
                      <DecisionButtons
                        subject={item.title}
                        disabled={!pending || decide.isPending}
                        onApprove={() => approve(item)}
                        onReject={() => setRejecting(item)}
                      />
                    </td>
                  </tr>
                );
              })}
            </DataTable>
            <PageControls page={page} total={data.total} limit={ADMIN_PAGE_SIZE} label="Classes pages" />
          </>
        )}
      </PagedQueryState>
      {reviewDialogMounted ? (
        <Suspense fallback={null}>
          <ClassReviewDialog
            item={reviewing}
            busy={decide.isPending}
            onCancel={() => setReviewing(null)}
            onDecide={(decision, reason) => {
              if (!reviewing) return;
              if (decision === 'approve') approve(reviewing);
              else reject(reviewing, reason);
            }}
          />
        </Suspense>
      ) : null}
      {rejectDialogMounted ? (
        <Suspense fallback={null}>
          <RejectClassDialog
            classTitle={rejecting?.title ?? null}
            busy={decide.isPending}
            onCancel={() => setRejecting(null)}
            onReject={(reason) => rejecting && reject(rejecting, reason)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
