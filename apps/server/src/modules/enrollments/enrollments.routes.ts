import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeletedCountResponse, EmailParam, IdParam } from '@skillhive/shared/contracts/common';
import {
  ClassRosterEntry,
  ClassRosterQuery,
  CreateEnrollmentBody,
  CreateEnrollmentResponse,
  Enrollment,
  EnrollmentListQuery,
} from '@skillhive/shared/contracts/enrollments';
import type { Db } from '../../db/client.ts';
import type { SeatsFreed } from '../waitlists/waitlists.public.ts';
import { viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import type { ImageStorage } from '../uploads/storage.public.ts';
import * as enrollments from './enrollments.service.ts';

/** Enrollment records of spec §3/§7: the student's cart (pending) and classes taken (paid). */
export async function enrollmentsRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    storage: ImageStorage;
    now: () => Date;
    seatHoldMinutes: number;
    /** Offers seats that freed to the people waiting (decision 051); never throws. */
    seatsFreed?: SeatsFreed;
  },
) {
  const { db, storage, now, seatHoldMinutes } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/enrolled',
    {
      config: { access: 'signed-in', owner: 'not-own-class', errors: [403, 404, 409] },
      schema: {
        tags: ['enrollments'],
        operationId: 'enrollInClass',
        summary:
          'Enroll in an accepted class that is not your own; the record copies the class, a repeated call answers the existing id (any signed-in user)',
        description:
          'Only `enrollId` and `sectionId` are read; the other spec §7 fields are ignored. A live class takes the section named, or its oldest section open for enrollment (404 for a section of another class, 409 when it is not open). A section with a seat limit holds a seat for the new line for SEAT_HOLD_MINUTES, renewed when its payment intent is created; 409 "This section is full" when every seat is paid or held. 201 with created: true for a new enrollment, 200 with created: false when the caller already had one for this class. 404 for an unknown class, 409 when it is pending, rejected or archived, or your own class.',
        body: CreateEnrollmentBody,
        response: { 200: CreateEnrollmentResponse, 201: CreateEnrollmentResponse },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const result = await enrollments.enroll(db, viewer, request.body.enrollId, {
        sectionId: request.body.sectionId,
        now: now(),
        seatHoldMinutes,
      });
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );

  typed.get(
    '/api/enrolled/:email',
    {
      config: { access: 'self-or-admin', list: true },
      schema: {
        tags: ['enrollments'],
        operationId: 'listEnrollments',
        summary:
          "A student's enrollments, newest first; ?status=pending is the cart (the student themself, or an admin)",
        params: EmailParam,
        querystring: EnrollmentListQuery,
        response: { 200: z.array(Enrollment) },
      },
    },
    async (request, reply) =>
      replyWithPage(reply, await enrollments.listEnrollmentsOf(db, storage, request.params.email, request.query)),
  );

  typed.get(
    '/api/teachers/me/classes/:id/roster',
    {
      config: { access: 'teacher', owner: 'own-class-roster', list: true },
      schema: {
        tags: ['enrollments'],
        operationId: 'listMyClassRoster',
        summary:
          "Who enrolled in one of the caller's classes, newest first: name, e-mail, paid or pending, dates and the price of the line, in decimal (`price`, as class prices are) and in integer cents (`priceCents`) (the class's teacher only)",
        description: "404 for an unknown class and for another teacher's class (an admin's included).",
        params: IdParam,
        querystring: ClassRosterQuery,
        response: { 200: z.array(ClassRosterEntry) },
      },
    },
    async (request, reply) =>
      replyWithPage(
        reply,
        await enrollments.listRosterOfClass(db, viewerOf(request), request.params.id, request.query),
      ),
  );

  typed.delete(
    '/api/enrolled/:id',
    {
      config: { access: 'signed-in', owner: 'enrollment-student', errors: [409] },
      schema: {
        tags: ['enrollments'],
        operationId: 'removeEnrollment',
        summary: 'Remove a pending enrollment from the cart; a paid one is a 409 (its student only)',
        params: IdParam,
        response: { 200: DeletedCountResponse },
      },
    },
    async (request) => {
      const { deletedCount, sectionId } = await enrollments.removeEnrollment(db, viewerOf(request), request.params.id);
      // A held seat may have freed: the first person waiting is offered it now (decision 051).
      if (sectionId && opts.seatsFreed) await opts.seatsFreed([sectionId]);
      return { deletedCount };
    },
  );
}
