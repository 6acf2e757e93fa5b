import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import {
  insertTeacherRequest,
  isOnePendingViolation,
} from '../src/modules/teacher-requests/teacher-requests.repository.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';

let ctx: TestContext;
let admin: TestUser;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await createUser(ctx, 'admin');
});
afterAll(async () => {
  await ctx?.close();
});

const application = { experience: 'mid-level', title: 'Front-end mentor', category: 'web-development' } as const;

function apply(user: TestUser | null, payload: Record<string, unknown> = application) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/teachers/teacher-requests',
    headers: user?.headers ?? {},
    payload,
  });
}
function decide(user: TestUser | null, id: string, action: 'approve' | 'reject') {
  return ctx.app.inject({
    method: 'PATCH',
    url: `/api/teachers/teacher-requests/${id}/${action}`,
    headers: user?.headers ?? {},
  });
}
function mine(user: TestUser | null) {
  return ctx.app.inject({ method: 'GET', url: '/api/teachers/teacher-requests/mine', headers: user?.headers ?? {} });
}
async function storedRequest(id: string) {
  const [row] = await ctx.db.select().from(schema.teacherRequests).where(eq(schema.teacherRequests.id, id));
  return row!;
}
async function flagsOf(user: TestUser) {
  const [row] = await ctx.db
    .select({ isAdmin: schema.users.isAdmin, isTeacher: schema.users.isTeacher })
    .from(schema.users)
    .where(eq(schema.users.id, user.id));
  return row!;
}
async function auditOf(id: string) {
  return ctx.db
    .select({
      action: schema.auditLog.action,
      actorId: schema.auditLog.actorId,
      targetType: schema.auditLog.targetType,
    })
    .from(schema.auditLog)
    .where(eq(schema.auditLog.targetId, id));
}
async function pendingRequestOf(user: TestUser): Promise<string> {
  const res = await apply(user);
  expect(res.statusCode).toBe(200);
  return res.json().insertedId;
}

describe('applying to teach', () => {
  it('stores a pending request with the name, e-mail and image of the account, whatever the body says', async () => {
    const student = await createUser(ctx, 'student', { name: 'Ada Applicant', image: 'https://example.test/ada.png' });
    const res = await apply(student, {
      ...application,
      // Mass assignment attempts: none of these may be taken from the body (DESIGN §1.1).
      status: 'approved',
      name: 'Someone Else',
      email: admin.email,
      image: 'https://evil.example.test/x.png',
      userId: admin.id,
      decidedBy: admin.id,
    });
    expect(res.statusCode).toBe(200);
    const { insertedId } = res.json();
    expect(insertedId).toEqual(expect.any(String));
    expect(await storedRequest(insertedId)).toMatchObject({
      userId: student.id,
      name: 'Ada Applicant',
      email: student.email,
      image: 'https://example.test/ada.png',
      experience: 'mid-level',
      title: 'Front-end mentor',
      category: 'web-development',
      status: 'pending',
      decidedBy: null,
      decidedAt: null,
    });
    expect((await flagsOf(student)).isTeacher).toBe(false);
  });

  it('validates experience, title and category with the form messages', async () => {
    const student = await createUser(ctx, 'student');
    const res = await apply(student, { experience: 'guru', title: '  ', category: 'cooking' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({
      experience: 'Experience is required',
      title: 'Title is required',
      category: 'Category is required',
    });
  });

  it('allows one pending request per user (409 for a second)', async () => {
    const student = await createUser(ctx, 'student');
    await pendingRequestOf(student);
    const second = await apply(student);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('conflict');
  });

  it('keeps one pending request when several submissions race (the unique index answers 409 too)', async () => {
    const student = await createUser(ctx, 'student');
    const results = await Promise.all(Array.from({ length: 5 }, () => apply(student)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    const rows = await ctx.db
      .select()
      .from(schema.teacherRequests)
      .where(and(eq(schema.teacherRequests.userId, student.id), eq(schema.teacherRequests.status, 'pending')));
    expect(rows).toHaveLength(1);
  });

  it('recognises the driver’s unique violation of the one-pending index (the race’s losing insert)', async () => {
    const student = await createUser(ctx, 'student');
    const row = {
      userId: student.id,
      name: 'n',
      email: student.email,
      experience: 'beginner' as const,
      title: 't',
      category: 'data-science' as const,
    };
    await insertTeacherRequest(ctx.db, row);
    const error = await insertTeacherRequest(ctx.db, row).catch((e: unknown) => e);
    expect(isOnePendingViolation(error)).toBe(true);
    expect(isOnePendingViolation(new Error('something else'))).toBe(false);
  });

  it('answers 409 to a teacher', async () => {
    const teacher = await createUser(ctx, 'teacher');
    const res = await apply(teacher);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('You are already a teacher');
  });

  it('lets a rejected applicant apply again', async () => {
    const student = await createUser(ctx, 'student');
    const first = await pendingRequestOf(student);
    expect((await decide(admin, first, 'reject')).statusCode).toBe(200);
    const again = await apply(student, { ...application, title: 'Second try' });
    expect(again.statusCode).toBe(200);
    expect(again.json().insertedId).not.toBe(first);
    // /mine shows the latest one.
    expect((await mine(student)).json()).toMatchObject({
      _id: again.json().insertedId,
      status: 'pending',
      title: 'Second try',
    });
  });
});

describe('the caller’s latest request', () => {
  it('is null before applying, then follows the request through its decision', async () => {
    const student = await createUser(ctx, 'student');
    const before = await mine(student);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toBeNull();
    const id = await pendingRequestOf(student);
    expect((await mine(student)).json()).toEqual({
      _id: id,
      name: expect.any(String),
      email: student.email,
      image: 'https://example.test/avatar.png',
      experience: 'mid-level',
      title: 'Front-end mentor',
      category: 'web-development',
      status: 'pending',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      decidedAt: null,
    });
    await decide(admin, id, 'approve');
    expect((await mine(student)).json()).toMatchObject({ _id: id, status: 'approved', decidedAt: expect.any(String) });
  });
});

describe('deciding', () => {
  it('approve: pending → approved, the applicant becomes a teacher, audited; then 409', async () => {
    const student = await createUser(ctx, 'student');
    const id = await pendingRequestOf(student);
    const res = await decide(admin, id, 'approve');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ modifiedCount: 1 });
    expect(await storedRequest(id)).toMatchObject({
      status: 'approved',
      decidedBy: admin.id,
      decidedAt: expect.any(Date),
    });
    expect(await flagsOf(student)).toEqual({ isAdmin: false, isTeacher: true });
    expect(await auditOf(id)).toEqual([
      { action: 'teacher_request.approve', actorId: admin.id, targetType: 'teacher_request' },
    ]);
    // The applicant's notification centre says so (decision 047).
    const listed = await ctx.app.inject({ url: '/api/notifications', headers: student.headers });
    expect(listed.json().items).toMatchObject([
      { kind: 'moderation', title: 'Your application to teach was approved', link: '/dashboard/addClasses' },
    ]);

    for (const action of ['approve', 'reject'] as const) {
      const again = await decide(admin, id, action);
      expect(again.statusCode, action).toBe(409);
      expect(again.json().error.message).toBe('This teacher request was already approved');
    }
    expect(await auditOf(id)).toHaveLength(1);
  });

  it('approving an admin keeps them admin (DESIGN §1.5)', async () => {
    const otherAdmin = await createUser(ctx, 'admin');
    const id = await pendingRequestOf(otherAdmin);
    expect((await decide(admin, id, 'approve')).statusCode).toBe(200);
    expect(await flagsOf(otherAdmin)).toEqual({ isAdmin: true, isTeacher: true });
  });

  it('reject: pending → rejected, not a teacher, audited; then 409', async () => {
    const student = await createUser(ctx, 'student');
    const id = await pendingRequestOf(student);
    const res = await decide(admin, id, 'reject');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await storedRequest(id)).toMatchObject({ status: 'rejected', decidedBy: admin.id });
    expect(await flagsOf(student)).toEqual({ isAdmin: false, isTeacher: false });
    expect(await auditOf(id)).toEqual([
      { action: 'teacher_request.reject', actorId: admin.id, targetType: 'teacher_request' },
    ]);
    const listed = await ctx.app.inject({ url: '/api/notifications', headers: student.headers });
    expect(listed.json().items).toMatchObject([
      { kind: 'moderation', title: 'Your application to teach was not approved', link: '/teach' },
    ]);
    for (const action of ['approve', 'reject'] as const) {
      expect((await decide(admin, id, action)).statusCode, action).toBe(409);
    }
    expect((await flagsOf(student)).isTeacher).toBe(false);
  });

  it('lets exactly one of two racing decisions win', async () => {
    const secondAdmin = await createUser(ctx, 'admin');
    const student = await createUser(ctx, 'student');
    const id = await pendingRequestOf(student);
    const results = await Promise.all([decide(admin, id, 'approve'), decide(secondAdmin, id, 'reject')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = results[0]!.statusCode === 200 ? 'approved' : 'rejected';
    expect((await storedRequest(id)).status).toBe(winner);
    expect((await flagsOf(student)).isTeacher).toBe(winner === 'approved');
    expect(await auditOf(id)).toHaveLength(1);
  });

  it('answers 404 for unknown ids and for ids that are not ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' or '1'='1"]) {
      for (const action of ['approve', 'reject'] as const) {
        const res = await decide(admin, encodeURIComponent(id), action);
        expect(res.statusCode, `${action} ${id}`).toBe(404);
      }
    }
  });
});

describe('listing (admins)', () => {
  it('pages newest first, filters by status and sends X-Total-Count', async () => {
    const list = (query: string) =>
      ctx.app.inject({ method: 'GET', url: `/api/teachers/teacher-requests${query}`, headers: admin.headers });
    const a = await createUser(ctx, 'student');
    const b = await createUser(ctx, 'student');
    const idA = await pendingRequestOf(a);
    const idB = await pendingRequestOf(b);
    await decide(admin, idA, 'reject');

    const all = await list('?limit=100');
    expect(all.statusCode).toBe(200);
    const items = all.json() as { _id: string; status: string; createdAt: string }[];
    expect(Number(all.headers['x-total-count'])).toBe(items.length);
    const times = items.map((i) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    const rejected = (await list('?status=rejected&limit=100')).json() as { _id: string; status: string }[];
    expect(rejected.every((r) => r.status === 'rejected')).toBe(true);
    expect(rejected.map((r) => r._id)).toContain(idA);
    const pending = await list('?status=pending&limit=100');
    expect((pending.json() as { _id: string }[]).map((r) => r._id)).toContain(idB);
    expect((pending.json() as { _id: string }[]).map((r) => r._id)).not.toContain(idA);

    const page1 = (await list('?limit=2&page=1')).json() as { _id: string }[];
    const page2 = (await list('?limit=2&page=2')).json() as { _id: string }[];
    expect(page1).toHaveLength(2);
    expect(page1.map((r) => r._id)).toEqual(items.slice(0, 2).map((r) => r._id));
    expect(page2.map((r) => r._id)).toEqual(items.slice(2, 4).map((r) => r._id));

    expect((await list('?status=accepted')).statusCode).toBe(400);
    expect((await list('?limit=101')).statusCode).toBe(400);
  });

  it('searches by part of the name, e-mail or title, with the status filter, and takes % and _ literally', async () => {
    const list = async (query: string) => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/teachers/teacher-requests${query}`,
        headers: admin.headers,
      });
      expect(res.statusCode, query).toBe(200);
      return { ids: (res.json() as { _id: string }[]).map((r) => r._id), total: Number(res.headers['x-total-count']) };
    };
    const ada = await createUser(ctx, 'student');
    const grace = await createUser(ctx, 'student');
    const applied = await apply(ada, { ...application, title: 'Zymurgy_100% for brewers' });
    expect(applied.statusCode).toBe(200);
    const idAda = (applied.json() as { insertedId: string }).insertedId;
    const idGrace = await pendingRequestOf(grace);

    expect((await list(`?q=${encodeURIComponent('zymurgy')}`)).ids).toEqual([idAda]);
    expect((await list(`?q=${encodeURIComponent('_100%')}`)).ids).toEqual([idAda]);
    // % and _ are characters, not wildcards: "Zymurgy%" matches nothing here.
    expect((await list(`?q=${encodeURIComponent('Zymurgy%')}`)).ids).toEqual([]);
    const byEmail = await list(`?q=${encodeURIComponent(grace.email.split('@')[0]!.toUpperCase())}`);
    expect(byEmail.ids).toContain(idGrace);
    expect(byEmail.ids).not.toContain(idAda);
    expect(byEmail.total).toBe(byEmail.ids.length);

    await decide(admin, idAda, 'approve');
    expect((await list(`?q=zymurgy&status=pending`)).ids).toEqual([]);
    expect((await list(`?q=zymurgy&status=approved`)).ids).toEqual([idAda]);
    const tooLong = await ctx.app.inject({
      method: 'GET',
      url: `/api/teachers/teacher-requests?q=${'x'.repeat(101)}`,
      headers: admin.headers,
    });
    expect(tooLong.statusCode).toBe(400);
    expect((tooLong.json() as { error: { code: string } }).error.code).toBeTruthy();
  });
});

describe('permission matrix', () => {
  type Role = 'anonymous' | 'student' | 'teacher' | 'admin';
  const actors: Record<Role, TestUser | null> = { anonymous: null, student: null, teacher: null, admin: null };
  beforeAll(async () => {
    actors.student = await createUser(ctx, 'student');
    actors.teacher = await createUser(ctx, 'teacher');
    actors.admin = admin;
  });

  /** Each cell gets its own pending request, so a refused call can be checked to have changed nothing. */
  const endpoints: {
    name: string;
    call: (user: TestUser | null, requestId: string) => ReturnType<typeof decide>;
    expected: Record<Role, number>;
  }[] = [
    {
      name: 'POST …/teacher-requests',
      call: (user) => apply(user),
      // The student already has the cell's pending request: 409. The admin (not a teacher) may apply.
      expected: { anonymous: 401, student: 409, teacher: 409, admin: 200 },
    },
    {
      name: 'GET …/teacher-requests',
      call: (user) =>
        ctx.app.inject({ method: 'GET', url: '/api/teachers/teacher-requests', headers: user?.headers ?? {} }),
      expected: { anonymous: 401, student: 403, teacher: 403, admin: 200 },
    },
    {
      name: 'GET …/teacher-requests/mine',
      call: (user) => mine(user),
      expected: { anonymous: 401, student: 200, teacher: 200, admin: 200 },
    },
    {
      name: 'PATCH …/:id/approve',
      call: (user, id) => decide(user, id, 'approve'),
      expected: { anonymous: 401, student: 403, teacher: 403, admin: 200 },
    },
    {
      name: 'PATCH …/:id/reject',
      call: (user, id) => decide(user, id, 'reject'),
      expected: { anonymous: 401, student: 403, teacher: 403, admin: 200 },
    },
  ];

  const cells = endpoints.flatMap((endpoint) =>
    (Object.keys(endpoint.expected) as Role[]).map((role) => ({ ...endpoint, role, status: endpoint.expected[role] })),
  );

  it.each(cells)('$name as $role → $status', async ({ call, role, status, name }) => {
    const applicant = await createUser(ctx, 'student');
    // The student cell applies as the applicant itself, to see its own 409.
    const user = role === 'student' ? applicant : actors[role];
    const requestId = await pendingRequestOf(applicant);
    const res = await call(user, requestId);
    expect(res.statusCode).toBe(status);
    if (name.startsWith('PATCH') && status !== 200) {
      expect((await storedRequest(requestId)).status).toBe('pending');
      expect((await flagsOf(applicant)).isTeacher).toBe(false);
    }
    if (name.startsWith('POST') && role === 'admin') {
      // Clean up so the shared admin can be asked again by other tests.
      await ctx.db.delete(schema.teacherRequests).where(eq(schema.teacherRequests.userId, admin.id));
    }
  });
});
