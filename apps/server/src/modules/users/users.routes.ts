import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DeletedCountResponse,
  EmailParam,
  IdParam,
  InsertedIdResponse,
  ModifiedCountResponse,
  TOTAL_COUNT_HEADER,
} from '@skillhive/shared/common';
import {
  AdminFlagResponse,
  SaveUserBody,
  TeacherFlagResponse,
  UserListItem,
  UserListQuery,
  UserProfile,
} from '@skillhive/shared/users';
import type { Db } from '../../db/client.ts';
import { requireAdmin, requireSelfOrAdmin, requireViewer, type Viewer } from '../../lib/authorize.ts';
import * as users from './users.service.ts';

/** The caller's own flags come from the viewer; anyone else's from the database. */
async function flagsFor(db: Db, viewer: Viewer, email: string): Promise<{ isAdmin: boolean; isTeacher: boolean }> {
  return viewer.email === email ? viewer : users.getUserByEmail(db, email);
}

/**
 * GET and PATCH /api/users/admin/:user share one template (spec §7 URLs): an e-mail for GET, a
 * user id for PATCH, so the OpenAPI document has one path, not two identical ones (decision 012).
 */
const UserEmailParam = z.object({ user: EmailParam.shape.email });
const UserIdParam = z.object({ user: IdParam.shape.id });

/** Users API of spec §7, each call with its permission (issue 3 §4). */
export async function usersRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/users/admin/:user',
    {
      schema: {
        tags: ['users'],
        operationId: 'getAdminFlag',
        summary: 'Whether a user, by e-mail, is an admin (the user themself, or an admin)',
        params: UserEmailParam,
        response: { 200: AdminFlagResponse },
      },
    },
    async (request) => {
      const email = request.params.user;
      const viewer = await requireSelfOrAdmin(request, email);
      return { admin: (await flagsFor(db, viewer, email)).isAdmin };
    },
  );

  typed.get(
    '/api/users/teacher/:email',
    {
      schema: {
        tags: ['users'],
        operationId: 'getTeacherFlag',
        summary: 'Whether a user is a teacher (the user themself, or an admin)',
        params: EmailParam,
        response: { 200: TeacherFlagResponse },
      },
    },
    async (request) => {
      const viewer = await requireSelfOrAdmin(request, request.params.email);
      return { teacher: (await flagsFor(db, viewer, request.params.email)).isTeacher };
    },
  );

  typed.get(
    '/api/users/profile/:email',
    {
      schema: {
        tags: ['users'],
        operationId: 'getUserProfile',
        summary: "A user's profile: image, name, role, e-mail, phone (the user themself, or an admin)",
        params: EmailParam,
        response: { 200: UserProfile },
      },
    },
    async (request) => {
      await requireSelfOrAdmin(request, request.params.email);
      return users.getProfile(db, request.params.email);
    },
  );

  typed.post(
    '/api/users',
    {
      schema: {
        tags: ['users'],
        operationId: 'saveOwnProfile',
        summary:
          "Complete the signed-in user's own profile: fills name, image and phone where empty; role and e-mail in the body are ignored (any signed-in user)",
        body: SaveUserBody,
        response: { 200: InsertedIdResponse },
      },
    },
    async (request) => {
      const viewer = await requireViewer(request);
      return users.saveOwnProfile(db, viewer, request.body);
    },
  );

  typed.get(
    '/api/users',
    {
      schema: {
        tags: ['users'],
        operationId: 'listUsers',
        summary: 'Every user, newest first, searchable by name or e-mail with ?q= (admins only)',
        querystring: UserListQuery,
        response: { 200: z.array(UserListItem) },
      },
    },
    async (request, reply) => {
      await requireAdmin(request);
      const { items, total } = await users.listUsers(db, request.query);
      reply.header(TOTAL_COUNT_HEADER, String(total));
      return items;
    },
  );

  typed.patch(
    '/api/users/admin/:user',
    {
      schema: {
        tags: ['users'],
        operationId: 'promoteUserToAdmin',
        summary: 'Make a user, by id, an admin, keeping their teacher role (admins only)',
        params: UserIdParam,
        response: { 200: ModifiedCountResponse },
      },
    },
    async (request) => {
      const actor = await requireAdmin(request);
      return users.promoteToAdmin(db, actor, request.params.user);
    },
  );

  typed.delete(
    '/api/users/:id',
    {
      schema: {
        tags: ['users'],
        operationId: 'deleteUser',
        summary: 'Delete an account and end its sessions; not yourself, not the last admin (admins only)',
        params: IdParam,
        response: { 200: DeletedCountResponse },
      },
    },
    async (request) => {
      const actor = await requireAdmin(request);
      return users.deleteUser(db, actor, request.params.id);
    },
  );
}
