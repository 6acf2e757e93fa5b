import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { InAppPreferences } from '@skillhive/shared/contracts/notifications';
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS } from '@skillhive/shared/rules/notifications';
import { errorMessage } from '../../../lib/api-client.ts';
import { notify } from '../../../lib/toast.ts';
import { FetchError, LoadingState } from '../../../components/ui/query-state.tsx';
import {
  notificationPreferencesQueryOptions,
  useSaveNotificationPreferences,
} from '../../notifications/api/notifications.ts';
import { useUserScope } from '../../auth/api/use-user-scope.ts';

/**
 * "Notification centre" (decision 047): which kinds of notification the bell shows, saved as they
 * are ticked, beside the e-mail settings (a kind turned off here still e-mails as set there).
 */
export function InAppNotificationsSection() {
  const query = useQuery(notificationPreferencesQueryOptions(useUserScope()));
  const save = useSaveNotificationPreferences();
  // As in the e-mail settings: what was just ticked shows at once, until the server answers.
  const [draft, setDraft] = useState<InAppPreferences | null>(null);

  if (query.isPending) return <LoadingState />;
  if (query.isError)
    return <FetchError what="your notification settings" error={query.error} onRetry={() => void query.refetch()} />;

  const current = draft ?? query.data;
  const toggle = (kind: keyof InAppPreferences, checked: boolean) => {
    const next = { ...current, [kind]: checked };
    setDraft(next);
    save.mutate(next, {
      onSuccess: () => notify.success('Notification settings saved'),
      onError: (error) => notify.error(errorMessage(error, 'Your notification settings could not be saved.')),
      onSettled: () => setDraft(null),
    });
  };

  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="sr-only">Show in the notification centre</legend>
      {NOTIFICATION_KINDS.map((kind) => (
        <label key={kind} className="flex cursor-pointer items-start gap-3">
          <input
            type="checkbox"
            className="checkbox checkbox-primary mt-0.5"
            checked={current[kind]}
            onChange={(event) => toggle(kind, event.target.checked)}
          />
          <span>{NOTIFICATION_KIND_LABELS[kind]}</span>
        </label>
      ))}
    </fieldset>
  );
}
