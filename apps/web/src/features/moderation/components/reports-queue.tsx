import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { AdminReport } from '@skillhive/shared/contracts/moderation';
import { REASON_MAX, REPORT_STATUSES, type ReportAction, type ReportStatus } from '@skillhive/shared/rules/constants';
import { DecideReportBody } from '@skillhive/shared/rules/report-form';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { BusyButton } from '../../../components/ui/busy-button.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { TextareaField } from '../../../components/ui/form-field.tsx';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { REPORTS_PAGE_SIZE, reportsQueryOptions, useDecideReport, useReinstateUser } from '../api/moderation.ts';
import { ACTION_LABELS, REASON_LABELS, TARGET_LABELS } from './report-labels.ts';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const STATUS_LABELS: Record<ReportStatus, string> = { open: 'Open', dismissed: 'Dismissed', actioned: 'Actioned' };

/** What each decision does, said in the dialog before the admin confirms it. */
const ACTION_EFFECTS: Record<ReportAction, string> = {
  dismiss: 'Nothing changes; the reporters hear that nothing was found.',
  hide: 'It disappears from every public page; its owner is told why.',
  warn: 'Its owner receives a warning by e-mail with your note.',
  suspend:
    'Its owner is signed out everywhere and cannot sign in; their classes and reviews are hidden. Payments and earnings are kept.',
};
const ACTION_BUTTONS: Record<ReportAction, string> = {
  dismiss: 'Dismiss',
  hide: 'Hide',
  warn: 'Warn',
  suspend: 'Suspend',
};

type Pending = { report: AdminReport; action: ReportAction };

/** The admin's report queue (decision 043): open reports oldest first, each decided in one step. */
export function ReportsQueue() {
  const filterId = useId();
  const user = useUserScope();
  const page = usePageParam();
  const [status, setStatus] = useState<ReportStatus>('open');
  const query = useQuery(reportsQueryOptions(user, status, page));
  const reinstate = useReinstateUser();
  const [pending, setPending] = useState<Pending | null>(null);

  const lift = (report: AdminReport) =>
    report.ownerId &&
    reinstate.mutate(report.ownerId, {
      onSuccess: () => notify.success(`${report.ownerName ?? 'The account'} can sign in again.`),
      onError: (error) => notify.error(errorMessage(error)),
    });

  return (
    <div className="flex flex-col gap-5">
      <title>Reports — SkillHive</title>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold sm:text-3xl">Reports</h1>
          <p className="text-muted">What people reported: dismiss it, hide it, warn its owner or suspend them.</p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={filterId} className="font-medium">
            Show
          </label>
          <select
            id={filterId}
            className="select select-sm"
            value={status}
            onChange={(event) => setStatus(event.target.value as ReportStatus)}
          >
            {REPORT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <PagedQueryState query={query} what="reports" empty="No reports here.">
        {(data) => (
          <>
            <DataTable label="Reports" columns={['Reported', 'What', 'Owner', 'Reason', 'By', 'Decision']}>
              {data.items.map((report) => (
                <tr key={report._id}>
                  <td className="whitespace-nowrap">
                    <time dateTime={report.createdAt}>{dateFormat.format(new Date(report.createdAt))}</time>
                  </td>
                  <th scope="row" className="min-w-48 font-normal break-words">
                    <span className="badge badge-ghost badge-sm mr-1">{TARGET_LABELS[report.targetType]}</span>
                    {report.targetPath ? (
                      <Link to={report.targetPath} className="link">
                        {report.targetLabel}
                      </Link>
                    ) : (
                      report.targetLabel
                    )}
                  </th>
                  <td className="break-words">
                    {report.ownerName ?? 'Deleted account'}
                    {report.ownerSuspended ? <span className="badge badge-error badge-sm ml-1">Suspended</span> : null}
                  </td>
                  <td className="min-w-48 break-words">
                    <span className="font-medium">{REASON_LABELS[report.reason]}</span>
                    {report.details ? (
                      <span className="block text-sm whitespace-pre-line">{report.details}</span>
                    ) : null}
                  </td>
                  <td className="break-words">
                    {/* A message with contact details is flagged by SkillHive itself (decision 045). */}
                    {report.reporterName ??
                      (report.details.startsWith('Flagged automatically')
                        ? 'SkillHive (automatic)'
                        : 'Deleted account')}
                  </td>
                  <td>
                    {report.status === 'open' ? (
                      <div className="flex flex-wrap gap-2">
                        {(['dismiss', 'hide', 'warn', 'suspend'] as const)
                          .filter((action) => action !== 'hide' || report.targetType !== 'user')
                          .map((action) => (
                            <button
                              key={action}
                              type="button"
                              className={`btn btn-sm ${action === 'suspend' ? 'btn-error' : 'btn-outline'}`}
                              aria-label={`${ACTION_BUTTONS[action]}: ${TARGET_LABELS[report.targetType]} ${report.targetLabel}`}
                              onClick={() => setPending({ report, action })}
                            >
                              {ACTION_BUTTONS[action]}
                            </button>
                          ))}
                      </div>
                    ) : (
                      <div className="flex flex-col items-start gap-1">
                        <span className="badge">
                          {report.action ? (ACTION_LABELS[report.action as ReportAction] ?? report.action) : '—'}
                        </span>
                        {report.note ? <span className="text-sm break-words">{report.note}</span> : null}
                        {report.ownerSuspended && report.ownerId ? (
                          <BusyButton
                            className="btn-sm btn-outline"
                            busy={reinstate.isPending && reinstate.variables === report.ownerId}
                            aria-label={`Lift the suspension of ${report.ownerName ?? 'this account'}`}
                            onClick={() => lift(report)}
                          >
                            Lift suspension
                          </BusyButton>
                        ) : null}
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
            <PageControls page={page} total={data.total} limit={REPORTS_PAGE_SIZE} label="Report pages" />
          </>
        )}
      </PagedQueryState>
      <DecisionDialog pending={pending} onClose={() => setPending(null)} />
    </div>
  );
}

/** Confirms a decision, with an optional note its owner reads (a warning, a hidden item, a suspension). */
function DecisionDialog({ pending, onClose }: { pending: Pending | null; onClose: () => void }) {
  const decide = useDecideReport();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!pending) return;
    const checked = DecideReportBody.safeParse({ action: pending.action, note });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message);
      return;
    }
    decide.mutate(
      { id: pending.report._id, action: pending.action, ...(checked.data.note ? { note: checked.data.note } : {}) },
      {
        onSuccess: ({ modifiedCount }) => {
          notify.success(
            `${ACTION_LABELS[pending.action]}: ${modifiedCount === 1 ? 'the report' : `${modifiedCount} reports`} closed.`,
          );
          onClose();
        },
        onError: (failure) => notify.error(errorMessage(failure)),
      },
    );
  };
  return (
    <FormDialog
      open={pending !== null}
      title={pending ? `${ACTION_BUTTONS[pending.action]}: ${pending.report.targetLabel}?` : ''}
      description={pending ? ACTION_EFFECTS[pending.action] : undefined}
      onCancel={onClose}
      onClose={() => {
        setNote('');
        setError(undefined);
      }}
      onSubmit={submit}
    >
      {pending && pending.action !== 'dismiss' ? (
        <TextareaField
          label="Note to its owner (optional)"
          rows={3}
          maxLength={REASON_MAX}
          value={note}
          error={error}
          onChange={(event) => setNote(event.target.value)}
        />
      ) : null}
      <div className="modal-action flex-wrap">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Cancel
        </button>
        <BusyButton
          type="submit"
          busy={decide.isPending}
          className={pending?.action === 'suspend' ? 'btn-error' : 'btn-primary'}
        >
          {pending ? ACTION_BUTTONS[pending.action] : 'Decide'}
        </BusyButton>
      </div>
    </FormDialog>
  );
}
