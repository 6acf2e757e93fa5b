import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '@skillhive/shared/contracts/common';
import { SentMessage, ThreadDetail, ThreadSummary } from '@skillhive/shared/contracts/messages';
import { MessageFormBody } from '@skillhive/shared/rules/message-form';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import type { Limiter } from '../../lib/rate-limit.ts';
import type { NotificationPublisher } from '../notifications/notifications.public.ts';
import * as messages from './messages.service.ts';

/** Messages between a person and a class's teacher (decision 045). */
export async function messagesRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; publicUrl: string; messagesPerUser: Limiter; notifications: NotificationPublisher },
) {
  const { db } = opts;
  const deps = () => ({ now: opts.now(), publicUrl: opts.publicUrl, notifications: opts.notifications });
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/classes/:id/messages',
    {
      config: { access: 'signed-in', owner: 'not-own-class', errors: [404, 409, 429] },
      schema: {
        tags: ['messages'],
        operationId: 'messageTeacher',
        summary:
          "Write to a public class's teacher, before or after buying; the thread of this class and you is made on the first message (any signed-in user, not the class's teacher)",
        description:
          '201 with the thread and the message. 400 for an empty or too long message; 404 when there is no such public class; 409 for your own class or when the teacher cannot receive messages (suspended); 429 past the hourly limit. The text is stored as text: markup is never rendered.',
        params: IdParam,
        body: MessageFormBody,
        response: { 201: SentMessage },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      await opts.messagesPerUser.consume(viewer.id);
      return reply
        .status(201)
        .send(await messages.messageTeacher(db, deps(), viewer, request.params.id, request.body.body));
    },
  );

  typed.get(
    '/api/messages/threads',
    {
      config: { access: 'signed-in', owner: 'own' },
      schema: {
        tags: ['messages'],
        operationId: 'listThreads',
        summary:
          'Your conversations, as the person asking or as the teacher, latest first, each with the other side’s name, a preview and whether it is unread (any signed-in user, their own)',
        response: { 200: z.array(ThreadSummary) },
      },
    },
    async (request) => messages.listThreads(db, viewerOf(request)),
  );

  typed.get(
    '/api/messages/threads/:id',
    {
      config: { access: 'signed-in', owner: 'thread-party-or-admin', errors: [404] },
      schema: {
        tags: ['messages'],
        operationId: 'getThread',
        summary:
          'A conversation and its latest 200 messages, oldest first; reading it marks it read (its two people, or an admin)',
        params: IdParam,
        response: { 200: ThreadDetail },
      },
    },
    async (request) => messages.readThread(db, viewerOf(request), request.params.id, opts.now()),
  );

  typed.post(
    '/api/messages/threads/:id/messages',
    {
      config: { access: 'signed-in', owner: 'thread-party', errors: [404, 409, 429] },
      schema: {
        tags: ['messages'],
        operationId: 'replyInThread',
        summary: 'Answer in a conversation (its two people only)',
        description:
          '201 with the message. 400 for an empty or too long message; 404 for a conversation that is not yours; 409 when the other side cannot receive messages (suspended); 429 past the hourly limit.',
        params: IdParam,
        body: MessageFormBody,
        response: { 201: SentMessage },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      await opts.messagesPerUser.consume(viewer.id);
      return reply.status(201).send(await messages.reply(db, deps(), viewer, request.params.id, request.body.body));
    },
  );
}
