import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '@skillhive/shared/contracts/common';
import { Announcement } from '@skillhive/shared/contracts/content';
import { AnnouncementFormBody } from '@skillhive/shared/rules/message-form';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import type { Limiter } from '../../lib/rate-limit.ts';
import type { NotificationPublisher } from '../notifications/notifications.public.ts';
import * as content from './content.service.ts';

/** A teacher's announcements to the students of a class (decision 050). */
export async function announcementsRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; publicUrl: string; messagesPerUser: Limiter; notifications: NotificationPublisher },
) {
  const { db } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/classes/:id/announcements',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404, 409, 429] },
      schema: {
        tags: ['content'],
        operationId: 'postAnnouncement',
        summary:
          'Announce something to every student who paid for the class, or for one of its sections (`sectionId`); each gets it by mail, in their notification centre and on the class page (its teacher only)',
        description:
          '201 with the announcement and how many students it went to. 400 for an empty or too long text; 404 for an unknown class or a section that is not the class’s; 409 while nobody has paid for it; 429 past the hourly limit of messages (RATE_LIMIT_MESSAGES_PER_HOUR), which announcements share. The text is stored as text: markup is never rendered.',
        params: IdParam,
        body: AnnouncementFormBody,
        response: { 201: Announcement },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      await opts.messagesPerUser.consume(viewer.id);
      return reply.status(201).send(
        await content.postAnnouncement(db, viewer, request.params.id, request.body, {
          now: opts.now(),
          publicUrl: opts.publicUrl,
          notifications: opts.notifications,
        }),
      );
    },
  );

  typed.get(
    '/api/classes/:id/announcements',
    {
      config: { access: 'signed-in', owner: 'class-member', errors: [404, 409] },
      schema: {
        tags: ['content'],
        operationId: 'listAnnouncements',
        summary:
          "A class's 50 latest announcements, newest first: a student reads those to the whole class and to their sections (a student who paid, its teacher, or an admin)",
        params: IdParam,
        response: { 200: z.array(Announcement) },
      },
    },
    async (request) => content.listAnnouncements(db, viewerOf(request), request.params.id),
  );
}
