import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { notify } from '../../../lib/toast.ts';
import { CATEGORY_LABELS, EXPERIENCE_LABELS, type TeacherRequestStatus } from '@skillhive/shared/rules/constants';
import type { TeacherRequest } from '@skillhive/shared/contracts/teacher-requests';
import { errorMessage } from '../../../lib/api-client.ts';
import {
  ADMIN_PAGE_SIZE,
  TEACHER_REQUEST_FILTERS,
  parseSearch,
  parseStatus,
  teacherRequestsQueryOptions,
  useDecideTeacherRequest,
} from '../api/admin.ts';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { DecisionButtons } from './decision-buttons.tsx';
import { StatusFilter } from './status-filter.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { Avatar } from '../../../components/ui/fallback-image.tsx';
import { countOf } from '../../../lib/plural.ts';
import { confirmApproveTeacherOf, useConfirm } from '../../../components/ui/confirm-dialog.tsx';

const STATUS_LABELS: Record<TeacherRequestStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};
const STATUS_BADGES: Record<TeacherRequestStatus, string> = {
  pending: 'badge-warning',
  approved: 'badge-success',
  rejected: 'badge-error',
};

/** teacherRequest (spec §2): applications with approve/reject, enabled only while pending (spec §4). */
export function TeacherRequestsTable() {
  const [search] = useSearchParams();
  const page = usePageParam();
  const status = parseStatus(search.get('status'), TEACHER_REQUEST_FILTERS);
  const q = parseSearch(search.get('q'));
  const user = useUserScope();
  const query = useQuery(teacherRequestsQueryOptions(user, { page, status, q }));
  const decide = useDecideTeacherRequest();
  const [confirm, confirmDialog] = useConfirm();

  const act = async (request: TeacherRequest, decision: 'approve' | 'reject') => {
    // A role decision is asked first, as "Make admin" is (rejecting opens no powers: one click).
    if (decision === 'approve' && (await confirm(confirmApproveTeacherOf(request.name))) !== 'confirmed') return;
    decide.mutate(
      { id: request._id, decision },
      {
        onSuccess: () =>
          notify.success(
            decision === 'approve' ? `${request.name} is a teacher now.` : `${request.name}'s request was rejected.`,
          ),
        onError: (error) => notify.error(errorMessage(error)),
      },
    );
  };

  return (
    <div className="flex flex-col gap-5">
      <title>Teacher Requests — SkillHive</title>
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold sm:text-3xl">Teacher requests</h1>
        <p className="text-muted">{query.data ? countOf(query.data.total, 'request') : '\u00a0'}</p>
      </div>
      <StatusFilter
        statuses={TEACHER_REQUEST_FILTERS}
        labels={STATUS_LABELS}
        value={status}
        search={q}
        searchLabel="Search by name, e-mail or title"
      />
      <PagedQueryState query={query} what="teacher requests" empty="No teacher requests here.">
        {(data) => (
          <>
            <DataTable
              label="Teacher requests"
              columns={['Name', 'Image', 'Experience', 'Title', 'Category', 'Status', 'Actions']}
            >
              {data.items.map((request) => {
                const pending = request.status === 'pending';
                return (
                  <tr key={request._id}>
                    <th scope="row" className="font-medium">
                      {request.name}
                      <span className="block text-sm font-normal whitespace-nowrap text-muted">{request.email}</span>
                    </th>
                    <td>
                      <Avatar
                        size={48}
                        src={request.image}
                        alt={`Photo of ${request.name}`}
                        className="h-12 w-12 rounded-full object-cover"
                      />
                    </td>
                    <td>{EXPERIENCE_LABELS[request.experience] ?? request.experience}</td>
                    <td className="min-w-40">{request.title}</td>
                    <td>{CATEGORY_LABELS[request.category] ?? request.category}</td>
                    <td>
                      <span className={`badge ${STATUS_BADGES[request.status]}`}>{STATUS_LABELS[request.status]}</span>
                    </td>
                    <td>
                      <DecisionButtons
                        subject={request.name}
                        disabled={!pending || decide.isPending}
                        onApprove={() => void act(request, 'approve')}
                        onReject={() => void act(request, 'reject')}
                      />
                    </td>
                  </tr>
                );
              })}
            </DataTable>
            <PageControls page={page} total={data.total} limit={ADMIN_PAGE_SIZE} label="Teacher requests pages" />
          </>
        )}
      </PagedQueryState>
      {confirmDialog}
    </div>
  );
}
