import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { PageControls, usePageParam } from '../../../components/ui/page-controls.tsx';
import { PagedQueryState } from '../../../components/ui/query-state.tsx';
import { useUserScope } from '../../auth/api/use-user-scope.ts';
import { notificationsQueryOptions, PAGE_SIZE } from '../api/notifications.ts';
import { MarkAllReadButton, NotificationList } from './notification-list.tsx';

/** /dashboard/notifications (decision 047): every notification, newest first, a page at a time. */
export function NotificationsPage() {
  const page = usePageParam();
  const query = useQuery(notificationsQueryOptions(useUserScope(), page, PAGE_SIZE));
  return (
    <div className="flex flex-col gap-5">
      <title>Notifications — SkillHive</title>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold sm:text-3xl">Notifications</h1>
          <p className="text-muted">
            {query.data
              ? `${query.data.unread} unread.`
              : 'Messages, decisions about your classes, refunds and reminders.'}{' '}
            <Link to={paths.dashboard.profile} className="link">
              Choose which ones show
            </Link>
          </p>
        </div>
        <MarkAllReadButton unread={query.data?.unread ?? 0} />
      </div>
      <PagedQueryState
        query={query}
        what="notifications"
        empty="Nothing yet: what happens to you on SkillHive shows here."
      >
        {(data) => (
          <>
            <NotificationList items={data.items} label="Notifications" />
            <PageControls page={page} total={data.total} limit={PAGE_SIZE} label="Notification pages" />
          </>
        )}
      </PagedQueryState>
    </div>
  );
}
