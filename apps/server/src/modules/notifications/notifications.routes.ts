import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  InAppPreferences,
  NotificationIdParam,
  NotificationListQuery,
  NotificationPage,
  NotificationStreamQuery,
  UnreadCount,
} from '@skillhive/shared/contracts/notifications';
import { TOTAL_COUNT_HEADER } from '@skillhive/shared/rules/http';
import type { Db } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/app-error.ts';
import { viewerOf } from '../../lib/authorize.ts';
import type { LiveNotifications } from './live.ts';
import * as notifications from './notifications.service.ts';
import { startNotificationStream } from './stream.ts';

const tags = ['notifications'];
const CURSOR = /^\d{1,18}$/;

/** The notification centre and its live stream (decision 047). */
export async function notificationsRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; live: LiveNotifications; streamsPerUser: number; heartbeatSeconds: number },
) {
  const { db, live } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  /** The open streams of this instance, ended when it closes (a stream would hold app.close() forever). */
  const open = new Set<() => void>();
  app.addHook('preClose', (done) => {
    for (const end of [...open]) end();
    done();
  });
  app.addHook('onClose', async () => live.close());

  typed.get(
    '/api/notifications',
    {
      config: { access: 'signed-in', owner: 'own', list: true },
      schema: {
        tags,
        operationId: 'listNotifications',
        summary: 'Your notifications, newest first, and how many of them are unread (any signed-in user, their own)',
        querystring: NotificationListQuery,
        response: { 200: NotificationPage },
      },
    },
    async (request, reply) => {
      const { page, total } = await notifications.listNotifications(db, viewerOf(request), request.query);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return page;
    },
  );

  typed.post(
    '/api/notifications/:id/read',
    {
      config: { access: 'signed-in', owner: 'own-notification', errors: [404] },
      schema: {
        tags,
        operationId: 'markNotificationRead',
        summary: 'Mark one of your notifications read; answers the unread count (any signed-in user, their own)',
        params: NotificationIdParam,
        response: { 200: UnreadCount },
      },
    },
    async (request) => notifications.markRead(db, viewerOf(request), request.params.id, opts.now()),
  );

  typed.post(
    '/api/notifications/read',
    {
      config: { access: 'signed-in', owner: 'own' },
      schema: {
        tags,
        operationId: 'markAllNotificationsRead',
        summary: 'Mark all your notifications read (any signed-in user, their own)',
        response: { 200: UnreadCount },
      },
    },
    async (request) => notifications.markAllRead(db, viewerOf(request), opts.now()),
  );

  typed.get(
    '/api/notifications/preferences',
    {
      config: { access: 'signed-in', owner: 'own' },
      schema: {
        tags,
        operationId: 'getNotificationCentrePreferences',
        summary: 'Which kinds of notification show in your notification centre (any signed-in user, their own)',
        response: { 200: InAppPreferences },
      },
    },
    async (request) => notifications.getPreferences(db, viewerOf(request)),
  );

  typed.put(
    '/api/notifications/preferences',
    {
      config: { access: 'signed-in', owner: 'own' },
      schema: {
        tags,
        operationId: 'setNotificationCentrePreferences',
        summary:
          'Turn kinds of notification on or off in your notification centre; items already there stay (any signed-in user, their own)',
        body: InAppPreferences,
        response: { 200: InAppPreferences },
      },
    },
    async (request) => notifications.setPreferences(db, viewerOf(request), request.body, opts.now()),
  );

  typed.get(
    '/api/notifications/stream',
    {
      config: { access: 'signed-in', owner: 'own', errors: [429] },
      schema: {
        tags,
        operationId: 'streamNotifications',
        summary: 'Your new notifications as Server-Sent Events, as they are created (any signed-in user, their own)',
        description: `Each event is \`event: notification\`, its \`id\` the item's id and its data the item as GET /api/notifications lists it. A reconnection with \`Last-Event-ID\` (or \`?after=<id>\`) first sends every item after that one, so none is lost; without either, the stream starts with the next new item. A comment is sent every NOTIFICATION_HEARTBEAT_SECONDS so proxies keep the connection open; the stream ends after 30 minutes and when the server stops, and the browser reconnects. 429 past NOTIFICATION_STREAMS_PER_USER open streams of one person on one instance.`,
        querystring: NotificationStreamQuery,
        // Loose: the validated headers replace the request's, which carry the credentials.
        headers: z.looseObject({
          'last-event-id': z.string().regex(CURSOR, 'Last-Event-ID must be the id of a notification').optional(),
        }),
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const resume = request.headers['last-event-id'] ?? request.query.after;
      const after = await notifications.streamCursor(db, viewer, resume);
      if (live.listenersOf(viewer.id) >= opts.streamsPerUser) {
        throw new AppError(
          ErrorCode.RATE_LIMITED,
          `You have ${opts.streamsPerUser} notification streams open already: close a tab and try again.`,
          { headers: { 'retry-after': '30' } },
        );
      }
      reply.hijack();
      const end = startNotificationStream(
        { db, live, log: request.log, heartbeatMs: opts.heartbeatSeconds * 1000 },
        reply.raw,
        { ...(reply.getHeaders() as Record<string, string>), 'x-request-id': request.id },
        viewer.id,
        after,
        () => open.delete(end),
      );
      open.add(end);
    },
  );
}
