import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateReviewResponse,
  MyReview,
  MyReviewListQuery,
  Review,
  ReviewListQuery,
  SavedReviewReply,
} from '@skillhive/shared/contracts/reviews';
import { IdParam } from '@skillhive/shared/contracts/common';
import { CreateReviewBody, ReviewReplyBody } from '@skillhive/shared/rules/review-form';
import type { Db } from '../../db/client.ts';
import { viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import * as reviews from './reviews.service.ts';

/** Reviews (spec §2 home page section; DESIGN §3 additions). */
export async function reviewsRoutes(app: FastifyInstance, opts: { db: Db; now: () => Date }) {
  const { db } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/reviews',
    {
      config: { access: 'public', list: true },
      schema: {
        tags: ['reviews'],
        operationId: 'listReviews',
        summary:
          'Reviews with the reviewer and the class, newest first, 20 a page by default; ?classId= for one class (public)',
        querystring: ReviewListQuery,
        response: { 200: z.array(Review) },
      },
    },
    async (request, reply) => replyWithPage(reply, await reviews.listReviews(db, request.query)),
  );

  typed.get(
    '/api/reviews/mine',
    {
      config: { access: 'signed-in', owner: 'own-reviews', list: true },
      schema: {
        tags: ['reviews'],
        operationId: 'listMyReviews',
        summary:
          'Your own reviews, newest first, hidden ones included; ?classId= for your review of one class (any signed-in user, their own)',
        querystring: MyReviewListQuery,
        response: { 200: z.array(MyReview) },
      },
    },
    async (request, reply) => replyWithPage(reply, await reviews.listMyReviews(db, viewerOf(request), request.query)),
  );

  typed.post(
    '/api/reviews',
    {
      config: { access: 'signed-in', owner: 'paid-student', errors: [404, 409] },
      schema: {
        tags: ['reviews'],
        operationId: 'saveReview',
        summary:
          'Review a class you paid for; posting again edits your review (a student with a paid enrollment in the class)',
        description:
          '201 with created: true for a new review, 200 with created: false when an earlier review was edited; insertedId is the review id both times. 409 without a paid enrollment, 404 for an unknown class.',
        body: CreateReviewBody,
        response: { 200: CreateReviewResponse, 201: CreateReviewResponse },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const result = await reviews.saveReview(db, viewer, request.body, opts.now);
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );

  // A teacher answers a review of their class once and edits the answer (decision 046).
  typed.post(
    '/api/reviews/:id/reply',
    {
      config: { access: 'teacher', owner: 'review-class-teacher', errors: [404, 409] },
      schema: {
        tags: ['reviews'],
        operationId: 'createReviewReply',
        summary:
          "Reply to a review of your class, once; it is shown under the review (the review's class's teacher only)",
        description:
          '201 with the reply. 404 for an unknown or hidden review, or one of another teacher’s class; 409 when the review has a reply already (edit it with PATCH), or one an admin hid after a report.',
        params: IdParam,
        body: ReviewReplyBody,
        response: { 201: SavedReviewReply },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await reviews.saveReply(db, viewerOf(request), request.params.id, request.body, 'create', opts.now)),
  );

  typed.patch(
    '/api/reviews/:id/reply',
    {
      config: { access: 'teacher', owner: 'review-class-teacher', errors: [404, 409] },
      schema: {
        tags: ['reviews'],
        operationId: 'updateReviewReply',
        summary: "Edit your reply to a review of your class (the review's class's teacher only)",
        description:
          '404 for an unknown or hidden review, one of another teacher’s class, or a review without a reply yet; 409 for a reply an admin hid after a report.',
        params: IdParam,
        body: ReviewReplyBody,
        response: { 200: SavedReviewReply },
      },
    },
    async (request) => reviews.saveReply(db, viewerOf(request), request.params.id, request.body, 'edit', opts.now),
  );
}
