import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditEntry, UserListItem, UserProfile } from '@skillhive/shared/contracts/users';
import { schema } from '../src/db/client.ts';
import {
  cookieHeader,
  createTestApp,
  createUser,
  signUp,
  TEST_PASSWORD,
  tokenFor,
  uniqueEmail,
  type TestContext,
  type TestUser,
} from './harness.ts';

/** Users API of spec §7 and the audit log, with who may call what (DESIGN §1.1). */
let ctx: TestContext;
let admin: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await createUser(ctx, 'admin', { name: 'Main Admin' });
});
afterAll(async () => {
  await ctx?.close();
});

const asUser = (user: TestUser) => user.headers;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function row(id: string) {
  const [found] = await ctx.db.select().from(schema.users).where(eq(schema.users.id, id));
  return found;
}

async function auditFor(targetId: string) {
  return ctx.db.select().from(schema.auditLog).where(eq(schema.auditLog.targetId, targetId));
}

describe('GET /api/users/admin/:email and /api/users/teacher/:email', () => {
  it('answer the role flags of the caller, whatever the letter case of the address', async () => {
    const both = await createUser(ctx, 'admin-teacher');
    const teacher = await createUser(ctx, 'teacher');
    const student = await createUser(ctx, 'student');
    const flags = async (user: TestUser) => ({
      ...(await ctx.app.inject({ url: `/api/users/admin/${user.email.toUpperCase()}`, headers: asUser(user) })).json(),
      ...(
        await ctx.app.inject({ url: `/api/users/teacher/${encodeURIComponent(user.email)}`, headers: asUser(user) })
      ).json(),
    });
    expect(await flags(both)).toEqual({ admin: true, teacher: true });
    expect(await flags(teacher)).toEqual({ admin: false, teacher: true });
    expect(await flags(student)).toEqual({ admin: false, teacher: false });
  });

  it('let an admin ask about anyone, and say 404 for an unknown address', async () => {
    const teacher = await createUser(ctx, 'teacher');
    const response = await ctx.app.inject({ url: `/api/users/teacher/${teacher.email}`, headers: asUser(admin) });
    expect(response.json()).toEqual({ teacher: true });
    const unknown = await ctx.app.inject({ url: `/api/users/admin/${uniqueEmail('ghost')}`, headers: asUser(admin) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });
});

describe('GET /api/users/profile/:email', () => {
  it('gives image, name, role, e-mail and phone (spec §7), with admin > teacher > student', async () => {
    const both = await createUser(ctx, 'admin-teacher', {
      name: 'Both Roles',
      phone: '01234567890',
      image: 'https://example.test/b.png',
    });
    const response = await ctx.app.inject({ url: `/api/users/profile/${both.email}`, headers: asUser(both) });
    expect(response.statusCode).toBe(200);
    const profile = UserProfile.parse(response.json());
    expect(profile).toEqual({
      _id: both.id,
      name: 'Both Roles',
      email: both.email,
      image: 'https://example.test/b.png',
      phone: '01234567890',
      role: 'admin',
      admin: true,
      teacher: true,
    });
    const teacher = await createUser(ctx, 'teacher');
    expect(
      (await ctx.app.inject({ url: `/api/users/profile/${teacher.email}`, headers: asUser(admin) })).json().role,
    ).toBe('teacher');
  });
});

describe('POST /api/users (the caller’s own profile)', () => {
  it('answers insertedId null when the profile is already complete, changing nothing', async () => {
    const user = await signUp(ctx, { name: 'Complete', phone: '01234567890' });
    const before = await row(user.id);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: asUser(user),
      payload: {
        name: 'Other',
        email: user.email,
        phone: '09876543210',
        image: 'https://example.test/x.png',
        role: 'student',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ insertedId: null });
    expect(await row(user.id)).toEqual(before);
  });

  it('fills in missing fields once, answering the user id, then null (idempotent)', async () => {
    const user = await signUp(ctx, { name: 'Third Party' });
    // As after a third-party sign-in: the provider gave no phone and no picture.
    await ctx.db.update(schema.users).set({ phone: null, image: null }).where(eq(schema.users.id, user.id));
    const payload = { name: 'Ignored Name', email: user.email, phone: '+44 20 7946 0958', image: '/uploads/abc.webp' };
    const first = await ctx.app.inject({ method: 'POST', url: '/api/users', headers: asUser(user), payload });
    expect(first.json()).toEqual({ insertedId: user.id });
    expect(await row(user.id)).toMatchObject({
      name: 'Third Party',
      phone: '+44 20 7946 0958',
      image: '/uploads/abc.webp',
    });
    const second = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: asUser(user),
      payload: { ...payload, phone: '01234567890' },
    });
    expect(second.json()).toEqual({ insertedId: null });
    expect((await row(user.id))?.phone).toBe('+44 20 7946 0958');
  });

  it('validates the fields it reads with the sign-up rules', async () => {
    const user = await signUp(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: asUser(user),
      payload: { phone: '12' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ phone: 'Must be at least 11 digits' });
  });

  it('works with a Bearer token and an empty body', async () => {
    const user = await signUp(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: bearer(await tokenFor(ctx, user)),
      payload: {},
    });
    expect(response.json()).toEqual({ insertedId: null });
  });
});

describe('GET /api/users (admin)', () => {
  let search: string;
  beforeAll(async () => {
    search = `zebra${Date.now().toString(36)}`;
    await createUser(ctx, 'student', { name: `Ann ${search.toUpperCase()} One` });
    await createUser(ctx, 'teacher', { name: 'Bob Two', email: uniqueEmail(`${search}.bob`) });
    await createUser(ctx, 'student', { name: `Cy ${search} Three` });
  });

  it('lists users newest first, with X-Total-Count and UserListItem rows', async () => {
    const response = await ctx.app.inject({ url: '/api/users?limit=100', headers: asUser(admin) });
    expect(response.statusCode).toBe(200);
    const items = UserListItem.array().parse(response.json());
    const [total] = await ctx.db.$count(schema.users).then((n) => [n]);
    expect(Number(response.headers['x-total-count'])).toBe(total);
    expect(items).toHaveLength(Math.min(100, total!));
    const times = items.map((i) => Date.parse(i.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(items.find((i) => i._id === admin.id)).toMatchObject({
      email: admin.email,
      role: 'admin',
      admin: true,
      teacher: false,
    });
  });

  it('searches name or e-mail, case-insensitively, and pages', async () => {
    const response = await ctx.app.inject({ url: `/api/users?q=${search.toUpperCase()}`, headers: asUser(admin) });
    const names = (response.json() as UserListItem[]).map((u) => u.name);
    expect(names).toEqual([`Cy ${search} Three`, 'Bob Two', `Ann ${search.toUpperCase()} One`]);
    expect(response.headers['x-total-count']).toBe('3');
    const page2 = await ctx.app.inject({ url: `/api/users?q=${search}&page=2&limit=2`, headers: asUser(admin) });
    expect((page2.json() as UserListItem[]).map((u) => u.name)).toEqual([`Ann ${search.toUpperCase()} One`]);
    expect(page2.headers['x-total-count']).toBe('3');
  });

  it('treats % and _ in a search as plain characters', async () => {
    const response = await ctx.app.inject({ url: `/api/users?q=${encodeURIComponent('%')}`, headers: asUser(admin) });
    expect(response.json()).toEqual([]);
    expect(response.headers['x-total-count']).toBe('0');
  });

  it('rejects bad paging with 400', async () => {
    for (const query of ['page=0', 'limit=1000', 'limit=abc']) {
      const response = await ctx.app.inject({ url: `/api/users?${query}`, headers: asUser(admin) });
      expect(response.statusCode).toBe(400);
    }
  });
});

describe('PATCH /api/users/admin/:id (admin)', () => {
  it('promotes a teacher to admin, keeping them a teacher, and audits it once', async () => {
    const teacher = await createUser(ctx, 'teacher');
    const response = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/admin/${teacher.id}`,
      headers: asUser(admin),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ modifiedCount: 1 });
    expect(await row(teacher.id)).toMatchObject({ isAdmin: true, isTeacher: true });
    const again = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/users/admin/${teacher.id}`,
      headers: asUser(admin),
    });
    expect(again.json()).toEqual({ modifiedCount: 0 });
    const audit = await auditFor(teacher.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'user.promote',
      actorId: admin.id,
      actorEmail: admin.email,
      targetType: 'user',
      targetLabel: teacher.email,
    });
  });

  it('says 404 for an unknown or malformed id', async () => {
    for (const id of ['no-such-user', '00000000-0000-0000-0000-000000000000', 'x'.repeat(64), "1' or '1'='1"]) {
      const response = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/users/admin/${encodeURIComponent(id)}`,
        headers: asUser(admin),
      });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('DELETE /api/users/:id (admin)', () => {
  it('deletes the account: its session, token and password stop working at once, and the audit row stays', async () => {
    const victim = await createUser(ctx, 'student');
    const token = await tokenFor(ctx, victim);
    const own = `/api/users/profile/${victim.email}`;
    expect((await ctx.app.inject({ url: own, headers: asUser(victim) })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: own, headers: bearer(token) })).statusCode).toBe(200);

    const response = await ctx.app.inject({ method: 'DELETE', url: `/api/users/${victim.id}`, headers: asUser(admin) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deletedCount: 1 });

    expect(await row(victim.id)).toBeUndefined();
    expect(await ctx.db.select().from(schema.sessions).where(eq(schema.sessions.userId, victim.id))).toEqual([]);
    expect(await ctx.db.select().from(schema.accounts).where(eq(schema.accounts.userId, victim.id))).toEqual([]);
    expect((await ctx.app.inject({ url: own, headers: asUser(victim) })).statusCode).toBe(401);
    expect((await ctx.app.inject({ url: own, headers: bearer(token) })).statusCode).toBe(401);
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/jwt',
          headers: asUser(victim),
          payload: { email: victim.email },
        })
      ).statusCode,
    ).toBe(401);
    expect((await ctx.app.inject({ url: '/api/auth/get-session', headers: asUser(victim) })).json()).toBeNull();
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: victim.email, password: TEST_PASSWORD },
    });
    expect(signIn.statusCode).toBe(401);

    const audit = await auditFor(victim.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'user.delete', actorId: admin.id, targetLabel: victim.email });

    const twice = await ctx.app.inject({ method: 'DELETE', url: `/api/users/${victim.id}`, headers: asUser(admin) });
    expect(twice.statusCode).toBe(404);
  });

  it('does not let an admin delete themself (409)', async () => {
    const response = await ctx.app.inject({ method: 'DELETE', url: `/api/users/${admin.id}`, headers: asUser(admin) });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({ code: 'conflict', message: 'You cannot delete your own account' });
    expect(await row(admin.id)).toBeDefined();
  });

  it('lets an admin delete another admin; the audit rows of the deleted admin survive without their id', async () => {
    const second = await createUser(ctx, 'admin');
    const student = await createUser(ctx, 'student');
    // The second admin acts once, then is deleted by the first.
    expect(
      (
        await ctx.app.inject({ method: 'PATCH', url: `/api/users/admin/${student.id}`, headers: asUser(second) })
      ).json(),
    ).toEqual({
      modifiedCount: 1,
    });
    const response = await ctx.app.inject({ method: 'DELETE', url: `/api/users/${second.id}`, headers: asUser(admin) });
    expect(response.json()).toEqual({ deletedCount: 1 });
    const [promotion] = await auditFor(student.id);
    expect(promotion).toMatchObject({ action: 'user.promote', actorId: null, actorEmail: second.email });
    // A deleted admin's session no longer passes requireAdmin.
    expect((await ctx.app.inject({ url: '/api/users', headers: asUser(second) })).statusCode).toBe(401);
  });

  it('never leaves the app without an admin when two admins delete each other at once', async () => {
    const x = await createUser(ctx, 'admin');
    const y = await createUser(ctx, 'admin');
    const results = await Promise.all([
      ctx.app.inject({ method: 'DELETE', url: `/api/users/${y.id}`, headers: asUser(x) }),
      ctx.app.inject({ method: 'DELETE', url: `/api/users/${x.id}`, headers: asUser(y) }),
    ]);
    // Whichever runs second finds its caller deleted: signed out (401) if that was already so when
    // it checked the session, else refused inside its transaction (409).
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const survivors = [await row(x.id), await row(y.id)].filter(Boolean);
    expect(survivors).toHaveLength(1);
    expect(survivors[0]?.isAdmin).toBe(true);
  });

  it('refuses to delete a teacher whose classes students have paid for (their enrollments would go too)', async () => {
    const teacher = await createUser(ctx, 'teacher');
    const student = await createUser(ctx, 'student');
    const key = `${'b'.repeat(64)}.webp`;
    await ctx.db.insert(schema.uploads).values({ key, contentType: 'image/webp', width: 1, height: 1, bytes: 1 });
    const [cls] = await ctx.db
      .insert(schema.classes)
      .values({
        teacherId: teacher.id,
        teacherName: teacher.name,
        teacherEmail: teacher.email,
        title: 'Paid class',
        description: 'd',
        priceCents: 1000,
        imageKey: key,
        category: 'data-science',
        status: 'accepted',
      })
      .returning();
    const [payment] = await ctx.db
      .insert(schema.payments)
      .values({
        studentId: student.id,
        email: student.email,
        amountCents: 1000,
        gateway: 'test',
        transactionId: `pi_${teacher.id}`,
        cartIds: [],
        menuItemIds: [],
        status: 'succeeded',
      })
      .returning();
    await ctx.db.insert(schema.enrollments).values({
      classId: cls!.id,
      studentId: student.id,
      studentEmail: student.email,
      teacherName: teacher.name,
      title: 'Paid class',
      imageKey: key,
      description: 'd',
      priceCents: 1000,
      paidCents: 1000,
      status: 'paid',
      paymentId: payment!.id,
      paidAt: new Date(),
    });
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/${teacher.id}`,
      headers: asUser(admin),
    });
    expect(response.statusCode).toBe(409);
    expect(await row(teacher.id)).toBeDefined();
    // The student who paid can still be deleted (their own records go with them).
    const studentDelete = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/${student.id}`,
      headers: asUser(admin),
    });
    expect(studentDelete.json()).toEqual({ deletedCount: 1 });
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/api/users/${teacher.id}`, headers: asUser(admin) })).json(),
    ).toEqual({ deletedCount: 1 });
  });
});

describe('GET /api/audit (admin)', () => {
  it('lists admin actions newest first, paginated, with X-Total-Count', async () => {
    const a = await createUser(ctx, 'student');
    const b = await createUser(ctx, 'student');
    await ctx.app.inject({ method: 'PATCH', url: `/api/users/admin/${a.id}`, headers: asUser(admin) });
    await ctx.app.inject({ method: 'DELETE', url: `/api/users/${b.id}`, headers: asUser(admin) });
    const response = await ctx.app.inject({ url: '/api/audit?limit=2', headers: asUser(admin) });
    expect(response.statusCode).toBe(200);
    const entries = AuditEntry.array().parse(response.json());
    expect(entries.map((e) => [e.action, e.targetId])).toEqual([
      ['user.delete', b.id],
      ['user.promote', a.id],
    ]);
    expect(entries[0]).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      targetType: 'user',
      targetLabel: b.email,
    });
    const total = await ctx.db.$count(schema.auditLog);
    expect(Number(response.headers['x-total-count'])).toBe(total);
    const last = await ctx.app.inject({ url: `/api/audit?limit=1&page=${total}`, headers: asUser(admin) });
    expect(last.json()).toHaveLength(1);
  });
});

/**
 * The role × endpoint matrix (DESIGN §6): every cell's expected status, run
 * once with session cookies and once with Bearer tokens. "other" is a student calling a
 * self-only route about someone else; "adminOther" is an admin doing the same.
 */
describe('permission matrix', () => {
  type Role = 'anonymous' | 'student' | 'teacher' | 'admin' | 'other' | 'adminOther';
  type Actors = Record<'student' | 'teacher' | 'admin', TestUser> & { bystander: TestUser };
  interface Row {
    name: string;
    /** The request a role makes; `self` is the caller (or the student for anonymous/other). */
    request: (
      self: TestUser,
    ) => Promise<{ method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object }>;
    expected: Partial<Record<Role, number>>;
    /** Where a Bearer token gets another answer than the session cookie. */
    withBearer?: Partial<Record<Role, number>>;
  }
  const byEmail = (path: string) => async (self: TestUser) => ({
    method: 'GET' as const,
    url: `${path}/${self.email}`,
  });
  const rows: Row[] = [
    {
      name: 'GET /api/users/admin/:email',
      request: byEmail('/api/users/admin'),
      expected: { anonymous: 401, student: 200, teacher: 200, admin: 200, other: 403, adminOther: 200 },
    },
    {
      name: 'GET /api/users/teacher/:email',
      request: byEmail('/api/users/teacher'),
      expected: { anonymous: 401, student: 200, teacher: 200, admin: 200, other: 403, adminOther: 200 },
    },
    {
      name: 'GET /api/users/profile/:email',
      request: byEmail('/api/users/profile'),
      expected: { anonymous: 401, student: 200, teacher: 200, admin: 200, other: 403, adminOther: 200 },
    },
    {
      name: 'POST /api/jwt',
      request: async (self) => ({ method: 'POST', url: '/api/jwt', payload: { email: self.email } }),
      expected: { anonymous: 401, student: 200, teacher: 200, admin: 200, other: 403, adminOther: 403 },
      // A token never renews itself: only a session cookie gets one (DESIGN §1.2).
      withBearer: { student: 401, teacher: 401, admin: 401, other: 401, adminOther: 401 },
    },
    {
      name: 'POST /api/users',
      request: async () => ({ method: 'POST', url: '/api/users', payload: { role: 'admin' } }),
      expected: { anonymous: 401, student: 200, teacher: 200, admin: 200 },
    },
    {
      name: 'GET /api/users',
      request: async () => ({ method: 'GET', url: '/api/users' }),
      expected: { anonymous: 401, student: 403, teacher: 403, admin: 200 },
    },
    {
      name: 'PATCH /api/users/admin/:id',
      request: async () => ({ method: 'PATCH', url: `/api/users/admin/${(await createUser(ctx, 'student')).id}` }),
      expected: { anonymous: 401, student: 403, teacher: 403, admin: 200 },
    },
    {
      name: 'DELETE /api/users/:id',
      request: async () => ({ method: 'DELETE', url: `/api/users/${(await createUser(ctx, 'student')).id}` }),
      expected: { anonymous: 401, student: 403, teacher: 403, admin: 200 },
    },
    {
      name: 'GET /api/audit',
      request: async () => ({ method: 'GET', url: '/api/audit' }),
      expected: { anonymous: 401, student: 403, teacher: 403, admin: 200 },
    },
  ];

  let actors: Actors;
  const tokens = new Map<string, string>();
  beforeAll(async () => {
    actors = {
      student: await createUser(ctx, 'student'),
      teacher: await createUser(ctx, 'teacher'),
      admin: await createUser(ctx, 'admin'),
      bystander: await createUser(ctx, 'student'),
    };
    for (const user of Object.values(actors)) tokens.set(user.id, await tokenFor(ctx, user));
  });

  for (const credential of ['cookie', 'bearer'] as const) {
    const cells = rows.flatMap((r) =>
      (Object.entries({ ...r.expected, ...(credential === 'bearer' ? r.withBearer : {}) }) as [Role, number][]).map(
        ([role, status]) => [r.name, role, status, r] as const,
      ),
    );
    it.each(cells)(`%s as %s → %i (${credential})`, async (_name, role, status, r) => {
      const caller =
        role === 'anonymous'
          ? null
          : role === 'other'
            ? actors.student
            : role === 'adminOther'
              ? actors.admin
              : actors[role];
      // Self-only routes name the caller, except for other/adminOther, who name the bystander.
      const subject =
        role === 'other' || role === 'adminOther' || role === 'anonymous' ? actors.bystander : actors[role];
      const { method, url, payload } = await r.request(subject);
      const headers = caller === null ? {} : credential === 'cookie' ? caller.headers : bearer(tokens.get(caller.id)!);
      const response = await ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      expect(response.statusCode, response.body).toBe(status);
      if (status >= 400)
        expect(response.json().error.code).toBe({ 401: 'unauthenticated', 403: 'forbidden' }[status as 401 | 403]);
    });
  }

  it('leaves nobody promoted by the matrix’s own POST /api/users calls', async () => {
    for (const user of [actors.student, actors.teacher]) expect((await row(user.id))?.isAdmin).toBe(false);
  });
});

describe('sign-in after an admin changed the roles', () => {
  it('sees the new role at once, without signing in again', async () => {
    const user = await createUser(ctx, 'student');
    const cookie = cookieHeader(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          payload: { email: user.email, password: TEST_PASSWORD },
        })
      ).headers['set-cookie'],
    );
    expect((await ctx.app.inject({ url: '/api/users', headers: { cookie } })).statusCode).toBe(403);
    await ctx.app.inject({ method: 'PATCH', url: `/api/users/admin/${user.id}`, headers: asUser(admin) });
    expect((await ctx.app.inject({ url: '/api/users', headers: { cookie } })).statusCode).toBe(200);
  });
});
