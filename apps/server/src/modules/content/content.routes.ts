import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParam } from '@skillhive/shared/contracts/common';
import {
  ClassContent,
  ClassMaterial,
  ClassProgress,
  ClassSession,
  DeletedResponse,
  ProgressMarkResponse,
  PublishedDrafts,
  SessionStudentParams,
} from '@skillhive/shared/contracts/content';
import {
  LinkMaterialFormBody,
  ProgressMarkBody,
  PublishBody,
  PublishDraftsBody,
  ReorderBody,
  SaveSessionBody,
  UpdateMaterialBody,
  WeeklySessionsBody,
} from '@skillhive/shared/rules/content-forms';
import { viewerOf } from '../../lib/authorize.ts';
import { classCalendar } from './calendar.ts';
import { materialUploadRoute } from './material-upload.route.ts';
import * as content from './content.service.ts';

/** Each route declares its caller (decision 025); the ownership checks are in content-access.ts, behind content.service.ts. */
export async function contentRoutes(app: FastifyInstance, opts: { deps: content.ContentDeps }) {
  const { deps } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['content'];

  typed.get(
    '/api/classes/:id/content',
    {
      config: { access: 'signed-in', owner: 'content-reader', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'getClassContent',
        summary:
          "A class's sessions and materials: every item for its teacher and admins, the published ones with the caller's own progress marks for a student whose enrollment is paid; the meeting link only to the teacher, and to paid students from MEETING_LINK_OPEN_MINUTES before a session to its end",
        params: IdParam,
        response: { 200: ClassContent },
      },
    },
    async (request) => content.getContent(deps, viewerOf(request), request.params.id),
  );

  typed.get(
    '/api/classes/:id/progress',
    {
      config: { access: 'signed-in', owner: 'class-teacher-or-admin', errors: [404] },
      schema: {
        tags,
        operationId: 'getClassProgress',
        summary:
          'Attendance and completion per paid student, sessions held and the average completion of a class (its teacher, or an admin)',
        params: IdParam,
        response: { 200: ClassProgress },
      },
    },
    async (request) => content.getProgress(deps, viewerOf(request), request.params.id),
  );

  typed.get(
    '/api/classes/:id/calendar.ics',
    {
      config: { access: 'signed-in', owner: 'class-member', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'getClassCalendar',
        summary: "The class's published sessions as an iCalendar file (same callers as the class's content)",
        params: IdParam,
        produces: ['text/calendar'],
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const { classTitle, sessions } = await content.calendarOf(deps, viewer, request.params.id);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', 'attachment; filename="class.ics"')
        .header('cache-control', 'private, no-store')
        .send(classCalendar(classTitle, sessions));
    },
  );

  // ---- Sessions (the class's teacher) ----

  typed.post(
    '/api/classes/:id/sessions',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'createClassSession',
        summary:
          'Add a session as a draft at the end of the list; the start is a local date and time (YYYY-MM-DDTHH:mm) in the IANA time zone given (its teacher only)',
        params: IdParam,
        body: SaveSessionBody,
        response: { 201: ClassSession },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await content.createSession(deps, viewerOf(request), request.params.id, request.body)),
  );

  typed.post(
    '/api/classes/:id/sessions/weekly',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'createWeeklyClassSessions',
        summary:
          'Add a session and repeat it weekly: `weeks` drafts (1 to 52) at the same local time in the IANA time zone given, starting at the local date and time (YYYY-MM-DDTHH:mm), all or none (its teacher only)',
        description:
          'Drafts may be prepared while the class is pending review. 400 naming `weeks` outside 1 to 52, or `startsAt` when a week falls in a time the clocks skip; 409 when the class would hold more sessions than allowed.',
        params: IdParam,
        body: WeeklySessionsBody,
        response: { 201: z.array(ClassSession) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await content.createWeeklySessions(deps, viewerOf(request), request.params.id, request.body)),
  );

  typed.post(
    '/api/classes/:id/content/publish',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404] },
      schema: {
        tags,
        operationId: 'publishClassDrafts',
        summary:
          'Publish all: every draft session of the section given (`sectionId`), or every draft session and material of the class; answers how many were published (its teacher only)',
        params: IdParam,
        body: PublishDraftsBody,
        response: { 200: PublishedDrafts },
      },
    },
    async (request) => content.publishDrafts(deps, viewerOf(request), request.params.id, request.body),
  );

  typed.put(
    '/api/classes/:id/sessions/order',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404] },
      schema: {
        tags,
        operationId: 'reorderClassSessions',
        summary: "Put the class's sessions in a new order: every session id once (its teacher only)",
        params: IdParam,
        body: ReorderBody,
        response: { 200: z.array(ClassSession) },
      },
    },
    async (request) => content.reorderSessions(deps, viewerOf(request), request.params.id, request.body.ids),
  );

  typed.patch(
    '/api/class-sessions/:id',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404] },
      schema: {
        tags,
        operationId: 'updateClassSession',
        summary:
          "Edit a session (the whole form); moving a published session's time e-mails its paid students (its teacher only)",
        params: IdParam,
        body: SaveSessionBody,
        response: { 200: ClassSession },
      },
    },
    async (request) => content.updateSession(deps, viewerOf(request), request.params.id, request.body),
  );

  typed.post(
    '/api/class-sessions/:id/publish',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404] },
      schema: {
        tags,
        operationId: 'publishClassSession',
        summary: 'Publish a draft session (published: true) or take it back to draft (its teacher only)',
        params: IdParam,
        body: PublishBody,
        response: { 200: ClassSession },
      },
    },
    async (request) => content.publishSession(deps, viewerOf(request), request.params.id, request.body.published),
  );

  typed.delete(
    '/api/class-sessions/:id',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404] },
      schema: {
        tags,
        operationId: 'deleteClassSession',
        summary: 'Delete a session and its attendance marks (its teacher only)',
        params: IdParam,
        response: { 200: DeletedResponse },
      },
    },
    async (request) => content.deleteSession(deps, viewerOf(request), request.params.id),
  );

  typed.put(
    '/api/class-sessions/:id/attendance',
    {
      config: { access: 'signed-in', owner: 'paid-student-own-mark', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'markSessionAttended',
        summary:
          'Mark (done: true) or unmark your own attendance of a published session that has started (a student whose enrollment is paid)',
        params: IdParam,
        body: ProgressMarkBody,
        response: { 200: ProgressMarkResponse },
      },
    },
    async (request) => content.markAttendance(deps, viewerOf(request), request.params.id, request.body.done),
  );

  typed.put(
    '/api/class-sessions/:id/attendance/:studentId',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'markStudentAttended',
        summary:
          "Mark (done: true) or unmark a paid student's attendance of a published session that has started; 409 when the student has not paid or the session is another section's than theirs (the class's teacher only; decision 053)",
        params: SessionStudentParams,
        body: ProgressMarkBody,
        response: { 200: ProgressMarkResponse },
      },
    },
    async (request) =>
      content.markStudentAttendance(
        deps,
        viewerOf(request),
        request.params.id,
        request.params.studentId,
        request.body.done,
      ),
  );

  // ---- Materials ----

  typed.post(
    '/api/classes/:id/materials',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'createLinkMaterial',
        summary: 'Add a link (https) as a draft material at the end of the list (its teacher only)',
        params: IdParam,
        body: LinkMaterialFormBody,
        response: { 201: ClassMaterial },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await content.createLinkMaterial(deps, viewerOf(request), request.params.id, request.body)),
  );

  await materialUploadRoute(app, deps);

  typed.put(
    '/api/classes/:id/materials/order',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404] },
      schema: {
        tags,
        operationId: 'reorderClassMaterials',
        summary: "Put the class's materials in a new order: every material id once (its teacher only)",
        params: IdParam,
        body: ReorderBody,
        response: { 200: z.array(ClassMaterial) },
      },
    },
    async (request) => content.reorderMaterials(deps, viewerOf(request), request.params.id, request.body.ids),
  );

  typed.patch(
    '/api/materials/:id',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404] },
      schema: {
        tags,
        operationId: 'updateMaterial',
        summary: "Rename a material, or change a link's address (its teacher only)",
        params: IdParam,
        body: UpdateMaterialBody,
        response: { 200: ClassMaterial },
      },
    },
    async (request) => content.updateMaterial(deps, viewerOf(request), request.params.id, request.body),
  );

  typed.post(
    '/api/materials/:id/publish',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404] },
      schema: {
        tags,
        operationId: 'publishMaterial',
        summary: 'Publish a draft material (published: true) or take it back to draft (its teacher only)',
        params: IdParam,
        body: PublishBody,
        response: { 200: ClassMaterial },
      },
    },
    async (request) => content.publishMaterial(deps, viewerOf(request), request.params.id, request.body.published),
  );

  typed.delete(
    '/api/materials/:id',
    {
      config: { access: 'teacher', owner: 'class-teacher', errors: [404] },
      schema: {
        tags,
        operationId: 'deleteMaterial',
        summary:
          'Delete a material, its completion marks and (when no other material has the same bytes) its file (its teacher only)',
        params: IdParam,
        response: { 200: DeletedResponse },
      },
    },
    async (request) => content.deleteMaterial(deps, viewerOf(request), request.params.id),
  );

  typed.get(
    '/api/materials/:id/file',
    {
      config: { access: 'signed-in', owner: 'material-reader', errors: [404, 409, 503] },
      schema: {
        tags,
        operationId: 'downloadMaterial',
        summary:
          "Download a material's file, as an attachment with the type read from its bytes at upload (a student whose enrollment is paid, for published materials; the class's teacher; admins)",
        params: IdParam,
        produces: ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/gif'],
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const file = await content.openMaterialFile(deps, viewer, request.params.id);
      const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
      reply
        .header('content-type', file.contentType)
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      if (file.size > 0) reply.header('content-length', String(file.size));
      return reply.send(file.body);
    },
  );

  typed.put(
    '/api/materials/:id/completion',
    {
      config: { access: 'signed-in', owner: 'paid-student-own-mark', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'markMaterialDone',
        summary:
          'Mark (done: true) or unmark your own completion of a published material (a student whose enrollment is paid)',
        params: IdParam,
        body: ProgressMarkBody,
        response: { 200: ProgressMarkResponse },
      },
    },
    async (request) => content.markCompletion(deps, viewerOf(request), request.params.id, request.body.done),
  );
}
