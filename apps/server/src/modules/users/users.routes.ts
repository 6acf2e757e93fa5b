import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DeletedCountResponse,
  EmailParam,
  IdParam,
  InsertedIdResponse,
  ModifiedCountResponse,
} from '@skillhive/shared/contracts/common';
import {
  AdminFlagResponse,
  NotificationPreferences,
  OwnTimeZone,
  SaveUserBody,
  SessionListItem,
  TeacherFlagResponse,
  UserListItem,
  UserListQuery,
  UserProfile,
} from '@skillhive/shared/contracts/users';
import { DeleteOwnAccountBody, NotMeBody } from '@skillhive/shared/rules/account-forms';
import type { Db } from '../../db/client.ts';
import { type Viewer, viewerOf } from '../../lib/authorize.ts';
import { replyWithPage } from '../../lib/paging.ts';
import type { Limiter } from '../../lib/rate-limit.ts';
import * as users from './users.service.ts';

export interface UsersRoutesOptions {
  db: Db;
  now: () => Date;
  /** The sign-in lockout: a wrong password here counts as at sign-in, so this is no password oracle. */
  passwordFailures: Limiter;
}

const SessionIdParam = z.object({ id: z.string().min(1).max(100) });
const NotMeResponse = z.object({ signedOut: z.number().int(), emailRestored: z.boolean() });

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

/** Users API of spec §7, each call with its permission, checked here (DESIGN §1.1). */
export async function usersRoutes(app: FastifyInstance, opts: UsersRoutesOptions) {
  const { db } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/users/admin/:user',
    {
      config: { access: 'self-or-admin' },
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
      const viewer = viewerOf(request);
      return { admin: (await flagsFor(db, viewer, email)).isAdmin };
    },
  );

  typed.get(
    '/api/users/teacher/:email',
    {
      config: { access: 'self-or-admin' },
      schema: {
        tags: ['users'],
        operationId: 'getTeacherFlag',
        summary: 'Whether a user is a teacher (the user themself, or an admin)',
        params: EmailParam,
        response: { 200: TeacherFlagResponse },
      },
    },
    async (request) => ({ teacher: (await flagsFor(db, viewerOf(request), request.params.email)).isTeacher }),
  );

  typed.get(
    '/api/users/profile/:email',
    {
      config: { access: 'self-or-admin' },
      schema: {
        tags: ['users'],
        operationId: 'getUserProfile',
        summary: "A user's profile: image, name, role, e-mail, phone (the user themself, or an admin)",
        params: EmailParam,
        response: { 200: UserProfile },
      },
    },
    async (request) => users.getProfile(db, request.params.email),
  );

  typed.post(
    '/api/users',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['users'],
        operationId: 'saveOwnProfile',
        summary:
          "Complete the signed-in user's own profile: fills name, image and phone where empty; role and e-mail in the body are ignored (any signed-in user)",
        body: SaveUserBody,
        response: { 200: InsertedIdResponse },
      },
    },
    async (request) => users.saveOwnProfile(db, viewerOf(request), request.body),
  );

  typed.get(
    '/api/users',
    {
      config: { access: 'admin', list: true },
      schema: {
        tags: ['users'],
        operationId: 'listUsers',
        summary: 'Every user, newest first, searchable by name or e-mail with ?q= (admins only)',
        querystring: UserListQuery,
        response: { 200: z.array(UserListItem) },
      },
    },
    async (request, reply) => replyWithPage(reply, await users.listUsers(db, request.query)),
  );

  typed.patch(
    '/api/users/admin/:user',
    {
      config: { access: 'admin', errors: [409] },
      schema: {
        tags: ['users'],
        operationId: 'promoteUserToAdmin',
        summary: 'Make a user, by id, an admin, keeping their teacher role (admins only)',
        params: UserIdParam,
        response: { 200: ModifiedCountResponse },
      },
    },
    async (request) => users.promoteToAdmin(db, viewerOf(request), request.params.user),
  );

  typed.delete(
    '/api/users/:id',
    {
      config: { access: 'admin', owner: 'not-self-not-last-admin', errors: [409] },
      schema: {
        tags: ['users'],
        operationId: 'deleteUser',
        summary: 'Delete an account and end its sessions; not yourself, not the last admin (admins only)',
        params: IdParam,
        response: { 200: DeletedCountResponse },
      },
    },
    async (request) => users.deleteUser(db, viewerOf(request), request.params.id),
  );

  typed.get(
    '/api/users/me/notifications',
    {
      config: { access: 'signed-in', owner: 'own' },
      schema: {
        tags: ['users'],
        operationId: 'getNotificationPreferences',
        summary: 'Which optional e-mails the signed-in user gets (any signed-in user, their own)',
        response: { 200: NotificationPreferences },
      },
    },
    async (request) => users.getNotificationPreferences(db, viewerOf(request)),
  );

  typed.put(
    '/api/users/me/notifications',
    {
      config: { access: 'signed-in', owner: 'own' },
      schema: {
        tags: ['users'],
        operationId: 'setNotificationPreferences',
        summary:
          'Turn optional e-mails on or off; receipts, refunds and account e-mails always go out (any signed-in user, their own)',
        body: NotificationPreferences,
        response: { 200: NotificationPreferences },
      },
    },
    async (request) => users.setNotificationPreferences(db, viewerOf(request), request.body, opts.now()),
  );

  typed.put(
    '/api/users/me/time-zone',
    {
      config: { access: 'signed-in', owner: 'own' },
      schema: {
        tags: ['users'],
        operationId: 'setOwnTimeZone',
        summary:
          'Store the time zone the browser reports (IANA name; 400 otherwise), in which session reminder mails show times (any signed-in user, their own; decision 053)',
        body: OwnTimeZone,
        response: { 200: OwnTimeZone },
      },
    },
    async (request) => users.setOwnTimeZone(db, viewerOf(request), request.body.timeZone, opts.now()),
  );

  typed.get(
    '/api/users/me/sessions',
    {
      config: { access: 'signed-in', owner: 'own' },
      schema: {
        tags: ['users'],
        operationId: 'listOwnSessions',
        summary: "The signed-in user's devices, most recently active first; tokens are never shown (their own)",
        response: { 200: z.array(SessionListItem) },
      },
    },
    async (request) => users.listOwnSessions(db, viewerOf(request), opts.now()),
  );

  typed.delete(
    '/api/users/me/sessions/:id',
    {
      config: { access: 'signed-in', owner: 'own-session', errors: [404] },
      schema: {
        tags: ['users'],
        operationId: 'endOwnSession',
        summary: 'Sign one of your devices out, with the API tokens issued to it (their own sessions only)',
        params: SessionIdParam,
        response: { 200: DeletedCountResponse },
      },
    },
    async (request) => users.endOwnSession(db, viewerOf(request), request.params.id),
  );

  typed.delete(
    '/api/users/me',
    {
      config: { access: 'signed-in', owner: 'own-account-confirmed', errors: [403, 404, 409, 429] },
      schema: {
        tags: ['users'],
        operationId: 'deleteOwnAccount',
        summary:
          'Delete your own account: confirmed by your password, or, without one, a sign-in in the last 15 minutes; payment records are kept (their own)',
        body: DeleteOwnAccountBody,
        response: { 200: DeletedCountResponse },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      await users.confirmPerson(
        db,
        opts.passwordFailures,
        { person: viewer, ip: request.ip, password: request.body.password, now: opts.now() },
        users.DELETE_ACCOUNT_MESSAGES,
      );
      return users.deleteOwnAccount(db, viewer);
    },
  );

  typed.post(
    '/api/users/not-me',
    {
      config: { access: 'public', owner: 'not-me-token' },
      schema: {
        tags: ['users'],
        operationId: 'undoAsNotMe',
        summary:
          '"This was not me", from the link mailed about a change of address: ends every session, cancels pending links, gives the mailed address back (public; the token is the proof; works once)',
        body: NotMeBody,
        response: { 200: NotMeResponse },
      },
    },
    async (request) => users.undoAsNotMe(db, request.body.token, opts.now()),
  );
}
