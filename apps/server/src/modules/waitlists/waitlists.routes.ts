import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeletedCountResponse, IdParam } from '@skillhive/shared/contracts/common';
import { MyWaitlistEntry, WaitlistQueueEntry } from '@skillhive/shared/contracts/waitlists';
import { viewerOf } from '../../lib/authorize.ts';
import * as waitlists from './waitlists.service.ts';

/** Waitlists of full sections (decision 051). Each route declares its caller (decision 025). */
export async function waitlistsRoutes(app: FastifyInstance, opts: { deps: waitlists.WaitlistDeps }) {
  const { deps } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['waitlists'];

  typed.post(
    '/api/sections/:id/waitlist',
    {
      config: { access: 'signed-in', owner: 'not-own-class', errors: [404, 409] },
      schema: {
        tags,
        operationId: 'joinSectionWaitlist',
        summary: "Join a full section's waiting list, last (any signed-in user but the class's teacher)",
        description:
          'When a seat frees, the first person waiting is offered it for WAITLIST_OFFER_MINUTES (an e-mail and a notification); carting the section with POST /api/enrolled claims it. 409 when the section still has a seat, is not open (enrollment window, class not on sale) or was cancelled, when the caller teaches the class, has it in their cart or paid for it, or already waits; 404 for an unknown section.',
        params: IdParam,
        response: { 201: MyWaitlistEntry },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await waitlists.joinWaitlist(deps, viewerOf(request), request.params.id)),
  );

  typed.delete(
    '/api/sections/:id/waitlist',
    {
      config: { access: 'signed-in', owner: 'own', errors: [404] },
      schema: {
        tags,
        operationId: 'leaveSectionWaitlist',
        summary: "Leave a section's waiting list; a seat offered passes to the next person (the caller's own entry)",
        description: '404 when the caller is not waiting for the section nor offered a seat of it.',
        params: IdParam,
        response: { 200: DeletedCountResponse },
      },
    },
    async (request) => {
      const left = await waitlists.leaveWaitlist(deps, viewerOf(request), request.params.id);
      // The seat held for them goes to the next person at once (the job would at its next run).
      if (left.freedOffer) await waitlists.seatsFreedBy(deps, request.log)([request.params.id]);
      return { deletedCount: left.deletedCount };
    },
  );

  typed.get(
    '/api/waitlist',
    {
      config: { access: 'signed-in', owner: 'own' },
      schema: {
        tags,
        operationId: 'listMyWaitlistEntries',
        summary:
          "The caller's waiting lists: each section waited for with its position, or the seat offered and until when (any signed-in user, their own)",
        response: { 200: z.array(MyWaitlistEntry) },
      },
    },
    async (request) => waitlists.listMyEntries(deps, viewerOf(request)),
  );

  typed.get(
    '/api/sections/:id/waitlist',
    {
      config: { access: 'signed-in', owner: 'class-teacher-or-admin', errors: [404] },
      schema: {
        tags,
        operationId: 'listSectionWaitlist',
        summary:
          "A section's waiting list in joining order: position, display name, joined at, status and offer deadline; no e-mail address (the class's teacher or an admin)",
        description: '403 for anyone else; 404 for an unknown section.',
        params: IdParam,
        response: { 200: z.array(WaitlistQueueEntry) },
      },
    },
    async (request) => waitlists.listQueue(deps, viewerOf(request), request.params.id),
  );
}
