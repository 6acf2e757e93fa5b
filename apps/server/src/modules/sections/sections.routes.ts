import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '@skillhive/shared/contracts/common';
import {
  PublicSection,
  RescheduleAnswered,
  RescheduleOffer,
  SectionCancelled,
  SectionRescheduled,
  TeacherSection,
} from '@skillhive/shared/contracts/sections';
import {
  CancelSectionBody,
  RescheduleAnswerBody,
  RescheduleSectionBody,
  SectionFormBody,
} from '@skillhive/shared/rules/section-forms';
import { viewerOf } from '../../lib/authorize.ts';
import * as changes from './section-changes.service.ts';
import * as sections from './sections.service.ts';

/** Sections of a live class (decision 041), for its teacher. Each route declares its caller (decision 025). */
export async function sectionsRoutes(
  app: FastifyInstance,
  opts: {
    deps: sections.SectionsDeps;
    changes: Omit<changes.SectionChangesDeps, 'log'> & { refundWindowDays: number };
  },
) {
  const { deps } = opts;
  const changeDeps = { ...opts.changes, log: app.log };
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sections'];

  typed.get(
    '/api/classes/:id/schedule',
    {
      config: { access: 'public', owner: 'accepted-class', errors: [404] },
      schema: {
        tags,
        operationId: 'getClassSchedule',
        summary:
          "An accepted class's upcoming sections: their published session times, seats left, enrollment deadline and whether a seat can be bought now; no meeting link or material (public)",
        description:
          "Times are instants (ISO 8601); `timeZone` is the section's own. `seatsLeft` counts seats neither paid nor held by a buyer paying now (decision 042), null for no limit. A class that is not accepted is a 404.",
        params: IdParam,
        response: { 200: z.array(PublicSection) },
      },
    },
    async (request) => sections.publicSchedule(deps, request.params.id),
  );

  typed.get(
    '/api/classes/:id/sections',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404] },
      schema: {
        tags,
        operationId: 'listClassSections',
        summary:
          "A class's sections, oldest first, with their seats, enrollment window, paid students and sessions (its teacher only)",
        params: IdParam,
        response: { 200: z.array(TeacherSection) },
      },
    },
    async (request) => sections.listSections(deps, viewerOf(request), request.params.id),
  );

  typed.post(
    '/api/classes/:id/sections',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'createClassSection',
        summary:
          'Add a section: its time zone, maximum and optional minimum seats, and an optional enrollment window as local times (YYYY-MM-DDTHH:mm) in that zone (its teacher only)',
        description:
          'A new section of an accepted class needs no new review. 400 when the minimum is above the maximum or the window closes before it opens; 409 past the sections a class may hold.',
        params: IdParam,
        body: SectionFormBody,
        response: { 201: TeacherSection },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await sections.createSection(deps, viewerOf(request), request.params.id, request.body)),
  );

  typed.patch(
    '/api/sections/:id',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'updateClassSection',
        summary: "Edit a section (the whole form) (its class's teacher only)",
        description:
          '400 when the minimum is above the maximum or the enrollment deadline is after its first session; 409 when the maximum is below the students already enrolled, or the section was cancelled.',
        params: IdParam,
        body: SectionFormBody,
        response: { 200: TeacherSection },
      },
    },
    async (request) => sections.updateSection(deps, viewerOf(request), request.params.id, request.body),
  );

  typed.post(
    '/api/sections/:id/cancel',
    {
      config: { access: 'signed-in', owner: 'class-teacher-or-admin', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'cancelClassSection',
        summary:
          "Cancel a section: every paid student is refunded in full and mailed, with the teacher's optional message (the class's teacher, or an admin)",
        description:
          'Decision 052. 404 for an unknown section; 409 when it is already cancelled or one of its sessions has started; 400 for a message over 1,000 characters. Refunds finish at the gateway after the answer (the reconciler finishes one cut short).',
        params: IdParam,
        body: CancelSectionBody,
        response: { 200: SectionCancelled },
      },
    },
    async (request) => changes.cancelSectionByTeacher(changeDeps, viewerOf(request), request.params.id, request.body),
  );

  typed.post(
    '/api/sections/:id/reschedule',
    {
      config: { access: 'signed-in', owner: 'class-teacher-or-admin', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'rescheduleClassSection',
        summary:
          "Move a section's sessions: the first to a new start (a local time YYYY-MM-DDTHH:mm in the section's zone), the others by as much; each paid student is mailed the new times and may be refunded in full until the new first session (the class's teacher, or an admin)",
        description:
          'Decision 052. 400 for a time that is not a date and time, skipped by the clocks, in the past, unchanged or before the enrollment deadline; 404 for an unknown section; 409 when it is cancelled, has no sessions, or one of its sessions has started.',
        params: IdParam,
        body: RescheduleSectionBody,
        response: { 200: SectionRescheduled },
      },
    },
    async (request) => changes.rescheduleSection(changeDeps, viewerOf(request), request.params.id, request.body),
  );

  typed.get(
    '/api/reschedule-offers',
    {
      config: { access: 'signed-in', owner: 'own' },
      schema: {
        tags,
        operationId: 'listRescheduleOffers',
        summary:
          "The caller's open choices after a section they paid for was rescheduled: keep the seat or be refunded in full (any signed-in user, their own)",
        description: 'Decision 052. An offer is open until the rescheduled first session starts, and until answered.',
        response: { 200: z.array(RescheduleOffer) },
      },
    },
    async (request) => changes.listOpenOffers(changeDeps, viewerOf(request)),
  );

  typed.post(
    '/api/reschedule-offers/:id',
    {
      config: { access: 'signed-in', owner: 'enrollment-student-or-404', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'answerRescheduleOffer',
        summary:
          'Answer a rescheduled section for one paid enrollment (the id): keep the seat, or be refunded that line in full without approval (the student of the enrollment)',
        description:
          "Decision 052. 400 for an answer other than keep or refund; 404 when the enrollment has no offer of the caller's; 409 once answered or once the new first session has started. `pending` is true when the refund is still finishing at the gateway.",
        params: IdParam,
        body: RescheduleAnswerBody,
        response: { 200: RescheduleAnswered },
      },
    },
    async (request) => changes.answerOffer(changeDeps, viewerOf(request), request.params.id, request.body),
  );
}
