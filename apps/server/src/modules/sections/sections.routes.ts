import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '@skillhive/shared/contracts/common';
import { PublicSection, TeacherSection } from '@skillhive/shared/contracts/sections';
import { SectionFormBody } from '@skillhive/shared/rules/section-forms';
import { viewerOf } from '../../lib/authorize.ts';
import * as sections from './sections.service.ts';

/** Sections of a live class (decision 041), for its teacher. Each route declares its caller (decision 025). */
export async function sectionsRoutes(app: FastifyInstance, opts: { deps: sections.SectionsDeps }) {
  const { deps } = opts;
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
}
