import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { NotificationPreferences } from '@skillhive/shared/contracts/users';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';
import { myNotificationsQueryOptions, useSaveMyNotifications } from '../api/me.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

const OPTIONS: ReadonlyArray<{ key: keyof NotificationPreferences; label: string }> = [
  { key: 'teacherApplication', label: 'When my application to teach is decided' },
  { key: 'classReviews', label: 'When my class or my changes to it are reviewed' },
  { key: 'newMessages', label: 'When someone sends me a message' },
  { key: 'sessionReminders', label: 'Before a session of a class I paid for starts' },
];

/** "E-mail notifications": the optional e-mails, saved as they are ticked. */
export function NotificationsSection() {
  const query = useQuery(myNotificationsQueryOptions(useUserScope()));
  const save = useSaveMyNotifications();
  const id = useId();
  // What was just ticked, shown in the same render as the click (a controlled checkbox would
  // otherwise spring back until the request starts); cleared when the server has answered, so a
  // failed save shows the stored preferences again.
  const [draft, setDraft] = useState<NotificationPreferences | null>(null);

  if (query.isPending) return <LoadingState />;
  if (query.isError)
    return <FetchError what="your e-mail settings" error={query.error} onRetry={() => void query.refetch()} />;

  const current = draft ?? query.data;
  const toggle = (key: keyof NotificationPreferences, checked: boolean) => {
    const next = { ...current, [key]: checked };
    setDraft(next);
    save.mutate(next, {
      onSuccess: () => notify.success('E-mail settings saved'),
      onError: (error) => notify.error(errorMessage(error, 'Your e-mail settings could not be saved.')),
      onSettled: () => setDraft(null),
    });
  };

  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={`${id}-always`}>
      <legend className="sr-only">Send me an e-mail</legend>
      {OPTIONS.map((option) => (
        <label key={option.key} className="flex cursor-pointer items-start gap-3">
          <input
            type="checkbox"
            className="checkbox checkbox-primary mt-0.5"
            checked={current[option.key]}
            onChange={(event) => toggle(option.key, event.target.checked)}
          />
          <span>{option.label}</span>
        </label>
      ))}
      <p id={`${id}-always`} className="text-sm text-muted">
        Receipts, refunds and e-mails about your account (verification, password reset, a change of address) always go
        out.
      </p>
    </fieldset>
  );
}
