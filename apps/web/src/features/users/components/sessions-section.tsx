import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useAuth } from '../../auth/auth-context.ts';
import { revokeAllSessions, revokeOtherSessions } from '../../auth/api/account.ts';
import { meKeys, mySessionsQueryOptions, useEndMySession } from '../api/me.ts';
import { describeDevice } from '../device-name.ts';
import { FormMessage } from '../../../components/ui/form-message.tsx';
import { BusyButton } from '../../../components/ui/busy-button.tsx';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** "Signed-in devices" (decision 014): each one, and signing them out. */
export function SessionsSection() {
  const { forgetSession, user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sessions = useQuery(mySessionsQueryOptions(user));
  const endOne = useEndMySession();
  const [busy, setBusy] = useState<'others' | 'all' | null>(null);
  const [outcome, setOutcome] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);

  const signOutOthers = async () => {
    setBusy('others');
    setOutcome(null);
    try {
      await revokeOtherSessions();
      setOutcome({ kind: 'success', message: 'Every other device has been signed out.' });
    } catch (error) {
      setOutcome({ kind: 'error', message: errorMessage(error, 'The other devices could not be signed out.') });
    } finally {
      setBusy(null);
      void queryClient.invalidateQueries({ queryKey: meKeys.sessions(user?.id ?? '') });
    }
  };

  const signOutEverywhere = async () => {
    setBusy('all');
    setOutcome(null);
    try {
      await revokeAllSessions();
    } catch (error) {
      setBusy(null);
      setOutcome({ kind: 'error', message: errorMessage(error, 'Signing out everywhere failed. Please try again.') });
      return;
    }
    // The server has ended this session too: forget it here as a sign-out does.
    await forgetSession();
    notify.success('You are signed out on every device.');
    void navigate(paths.login, { replace: true });
  };

  const signOutOne = (id: string) => {
    setOutcome(null);
    endOne.mutate(id, {
      onSuccess: () => setOutcome({ kind: 'success', message: 'That device has been signed out.' }),
      onError: (error) =>
        setOutcome({ kind: 'error', message: errorMessage(error, 'That device could not be signed out.') }),
    });
  };

  return (
    <div className="flex flex-col gap-4">
      {outcome ? <FormMessage kind={outcome.kind}>{outcome.message}</FormMessage> : null}
      <QueryState query={sessions} what="your devices">
        {(data) => (
          <ul className="flex flex-col gap-2" aria-label="Signed-in devices">
            {data.map((session) => {
              const device = describeDevice(session.userAgent);
              return (
                <li
                  key={session.id}
                  className="flex flex-col gap-2 rounded-box border border-base-300 p-3 sm:flex-row sm:items-center"
                  data-testid="session-item"
                >
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium">
                      <span className="break-words">{device}</span>
                      {session.current ? <span className="badge badge-primary">This device</span> : null}
                    </p>
                    <p className="text-sm break-words text-muted">
                      {session.ipAddress ?? 'Address unknown'} · Last active{' '}
                      <time dateTime={session.updatedAt}>{dateFormat.format(new Date(session.updatedAt))}</time>
                    </p>
                  </div>
                  {session.current ? null : (
                    <button
                      type="button"
                      className="btn btn-sm btn-outline self-start sm:self-center"
                      aria-label={`Sign out ${device}, last active ${dateFormat.format(new Date(session.updatedAt))}`}
                      disabled={endOne.isPending || busy !== null}
                      onClick={() => signOutOne(session.id)}
                    >
                      Sign out
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </QueryState>
      <div className="flex flex-wrap gap-2">
        <BusyButton
          className="btn-outline"
          busy={busy === 'others'}
          disabled={busy !== null}
          onClick={() => void signOutOthers()}
        >
          Sign out other devices
        </BusyButton>
        <BusyButton
          className="btn-error"
          busy={busy === 'all'}
          disabled={busy !== null}
          onClick={() => void signOutEverywhere()}
        >
          Sign out everywhere
        </BusyButton>
      </div>
    </div>
  );
}
