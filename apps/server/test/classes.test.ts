import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassStatus } from '@skillhive/shared/rules/constants';
import { schema } from '../src/db/client.ts';
import { findClassById } from '../src/modules/classes/classes.repository.ts';
import { findClassForEnrollment } from '../src/modules/classes/classes.public.ts';
import { toClassItem } from '../src/modules/classes/classes.service.ts';
import {
  type ClassActors,
  type ClassRole,
  auditOf,
  createClassCast,
  insertClassRow,
  storedClass,
} from './class-fixtures.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';

let ctx: TestContext;
let actors: ClassActors;
let imageUrl: string;
let imageKey: string;
let secondImageUrl: string;

const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  ctx = await createTestApp();
  ({ actors, imageUrl, imageKey, secondImageUrl } = await createClassCast(ctx));
});
afterAll(async () => {
  await ctx?.close();
});

const headersOf = (role: ClassRole) => (role === 'anonymous' ? {} : actors[role].headers);

const validBody = () => ({
  title: 'Typography essentials',
  price: 19.99,
  description: 'Letterforms, spacing and hierarchy, with weekly critique.',
  image: imageUrl,
  category: 'graphic-design',
});

/** A class of `teacher` straight into the database (set-up only; the API paths are tested below). */
async function insertClass(
  teacher: TestUser = actors.owner,
  overrides: Partial<typeof schema.classes.$inferInsert> = {},
): Promise<string> {
  return insertClassRow(ctx, teacher, {
    title: 'Set-up class',
    description: 'Created for a test',
    priceCents: 2500,
    imageKey,
    category: 'data-science',
    status: 'pending',
    ...overrides,
  });
}

/** A student's enrollment in a class, paid (with its payment) or pending, created `daysAgo`. */
async function enroll(
  classId: string,
  student: TestUser,
  options: { paid: boolean; priceCents?: number; daysAgo?: number },
) {
  const createdAt = new Date(Date.now() - (options.daysAgo ?? 0) * DAY);
  const priceCents = options.priceCents ?? 2500;
  let paymentId: string | null = null;
  if (options.paid) {
    const [payment] = await ctx.db
      .insert(schema.payments)
      .values({
        studentId: student.id,
        email: student.email,
        amountCents: priceCents,
        gateway: 'test',
        transactionId: `pi_test_${randomBytes(8).toString('hex')}`,
        cartIds: [],
        menuItemIds: [classId],
        status: 'succeeded',
      })
      .returning({ id: schema.payments.id });
    paymentId = payment!.id;
  }
  await ctx.db.insert(schema.enrollments).values({
    classId,
    studentId: student.id,
    studentEmail: student.email,
    teacherName: 'T',
    title: 'x',
    imageKey,
    description: 'y',
    priceCents,
    status: options.paid ? 'paid' : 'pending',
    paidCents: options.paid ? priceCents : null,
    paymentId,
    paidAt: options.paid ? createdAt : null,
    createdAt,
  });
}

const create = (role: ClassRole, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'POST', url: '/api/classes', headers: headersOf(role), payload });
const patch = (role: ClassRole, id: string, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'PATCH', url: `/api/classes/${id}`, headers: headersOf(role), payload });
const remove = (role: ClassRole, id: string) =>
  ctx.app.inject({ method: 'DELETE', url: `/api/classes/${id}`, headers: headersOf(role) });
const getOne = (role: ClassRole, id: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/classes/${id}`, headers: headersOf(role) });
/** The version an admin is shown for a class (decision 027); a class not pending has none. */
async function shownVersion(id: string): Promise<string> {
  const res = await getOne('admin', id);
  return (res.statusCode === 200 && (res.json() as { version?: string }).version) || 'not-pending';
}
/** A decision on the version the admin is shown now, unless the payload names another. */
const moderate = async (role: ClassRole, id: string, action: 'approve' | 'reject', payload?: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'PATCH',
    url: `/api/classes/class-requests/${id}/${action}`,
    headers: headersOf(role),
    payload: { version: await shownVersion(id), ...payload },
  });

describe('POST /api/classes', () => {
  it('stores a pending class with the teacher’s name and e-mail and the price in cents', async () => {
    const res = await create('owner', validBody());
    expect(res.statusCode).toBe(200);
    const { insertedId } = res.json();
    expect(await storedClass(ctx, insertedId)).toMatchObject({
      teacherId: actors.owner.id,
      teacherName: 'Olivia Owner',
      teacherEmail: actors.owner.email,
      title: 'Typography essentials',
      priceCents: 1999,
      imageKey,
      category: 'graphic-design',
      status: 'pending',
      rejectionReason: null,
      enrollmentCount: 0,
    });
    const item = (await getOne('owner', insertedId)).json();
    expect(item).toEqual({
      _id: insertedId,
      title: 'Typography essentials',
      name: 'Olivia Owner',
      email: actors.owner.email,
      price: 19.99,
      description: validBody().description,
      image: imageUrl,
      category: 'graphic-design',
      status: 'pending',
      rejectionReason: null,
      totalEnrollment: 0,
      rating: null,
      reviewCount: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      // What an admin's decision carries back (decision 027).
      version: expect.stringMatching(/^[\w-]{22}$/),
    });
  });

  it('ignores status, name, e-mail, counters and teacher in the body (mass assignment)', async () => {
    const res = await create('owner', {
      ...validBody(),
      status: 'accepted',
      name: 'Someone Famous',
      email: actors.otherTeacher.email,
      totalEnrollment: 5000,
      enrollmentCount: 5000,
      teacherId: actors.otherTeacher.id,
      rating: 5,
      _id: '00000000-0000-4000-8000-000000000000',
    });
    expect(res.statusCode).toBe(200);
    const row = await storedClass(ctx, res.json().insertedId);
    expect(row).toMatchObject({
      status: 'pending',
      teacherId: actors.owner.id,
      teacherName: 'Olivia Owner',
      teacherEmail: actors.owner.email,
      enrollmentCount: 0,
      ratingSum: 0,
    });
    expect(row!.id).not.toBe('00000000-0000-4000-8000-000000000000');
  });

  it.each([
    [{ price: 0.49 }, 'price', 'Price must be between 0.50 and 10,000'],
    [{ price: 10_000.01 }, 'price', 'Price must be between 0.50 and 10,000'],
    [{ price: 12.345 }, 'price', 'Price can have at most two decimals'],
    [{ price: 'abc' }, 'price', 'Price must be a number, like 49 or 49.99'],
    [{ price: null }, 'price', 'Price is required'],
    [{ title: 'a'.repeat(121) }, 'title', 'Title must be at most 120 characters'],
    [{ title: '   ' }, 'title', 'Title is required'],
    [{ description: '' }, 'description', 'Description is required'],
    [{ category: 'cooking' }, 'category', 'Category is required'],
    [{ image: '' }, 'image', 'Image is required'],
  ])('refuses %o with 400', async (change, field, message) => {
    const res = await create('owner', { ...validBody(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[field]).toBe(message);
  });

  it('accepts the price bounds 0.50 and 10 000 (and a numeric string, as forms send)', async () => {
    for (const [price, cents] of [
      [0.5, 50],
      [10_000, 1_000_000],
      ['42.10', 4210],
    ] as const) {
      const res = await create('owner', { ...validBody(), price });
      expect(res.statusCode).toBe(200);
      expect((await storedClass(ctx, res.json().insertedId))!.priceCents).toBe(cents);
    }
  });

  it('refuses images that are not our uploads with 400', async () => {
    for (const image of [
      'https://i.ibb.co/abc/photo.jpg',
      `/api/uploads/images/${'f'.repeat(64)}.webp`,
      imageUrl.replace('.webp', '-480.webp'),
      'javascript:alert(1)',
      `${imageUrl}/../../etc/passwd`,
    ]) {
      const res = await create('owner', { ...validBody(), image });
      expect(res.statusCode, image).toBe(400);
      expect(res.json().error.fields.image).toMatch(/only images uploaded to SkillHive/);
    }
    // An absolute URL of our own image route is ours.
    const absolute = await create('owner', { ...validBody(), image: `http://localhost:3000${imageUrl}` });
    expect(absolute.statusCode).toBe(200);
  });
});

describe('state transitions', () => {
  it('pending → accepted: audited, visible to everyone; approving or rejecting again is 409', async () => {
    const id = await insertClass();
    const res = await moderate('admin', id, 'approve');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ modifiedCount: 1, success: true });
    expect((await storedClass(ctx, id))!.status).toBe('accepted');
    expect(await auditOf(ctx, id)).toEqual([
      { action: 'class.approve', actorId: actors.admin.id, details: { teacherEmail: actors.owner.email } },
    ]);
    expect((await getOne('anonymous', id)).statusCode).toBe(200);
    for (const action of ['approve', 'reject'] as const) {
      const again = await moderate('admin', id, action);
      expect(again.statusCode, action).toBe(409);
      expect(again.json().error.message).toBe('This class is accepted, not pending');
    }
    expect((await storedClass(ctx, id))!.status).toBe('accepted');
  });

  it('pending → rejected with a reason its teacher sees; then 409', async () => {
    const id = await insertClass();
    const res = await moderate('admin', id, 'reject', { reason: 'Add a weekly outline' });
    expect(res.json()).toEqual({ modifiedCount: 1, success: true });
    expect(await storedClass(ctx, id)).toMatchObject({ status: 'rejected', rejectionReason: 'Add a weekly outline' });
    expect((await getOne('owner', id)).json()).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Add a weekly outline',
    });
    expect(await auditOf(ctx, id)).toEqual([
      {
        action: 'class.reject',
        actorId: actors.admin.id,
        details: { teacherEmail: actors.owner.email, reason: 'Add a weekly outline' },
      },
    ]);
    expect((await moderate('admin', id, 'approve')).statusCode).toBe(409);
    expect((await moderate('admin', id, 'reject')).statusCode).toBe(409);
  });

  it('reject without a reason stores no reason', async () => {
    const id = await insertClass();
    expect((await moderate('admin', id, 'reject')).statusCode).toBe(200);
    expect((await storedClass(ctx, id))!.rejectionReason).toBeNull();
    const other = await insertClass();
    expect((await moderate('admin', other, 'reject', {})).statusCode).toBe(200);
  });

  it('a decision applies the version reviewed: a teacher edit after the admin opened it refuses it (409)', async () => {
    const id = await insertClass();
    const reviewed = await shownVersion(id);
    expect(reviewed).not.toBe('not-pending');
    const edit = await patch('owner', id, { title: 'SCAM pay outside the site', price: 9999 });
    expect(edit.statusCode).toBe(200);
    for (const action of ['approve', 'reject'] as const) {
      const stale = await moderate('admin', id, action, { version: reviewed });
      expect(stale.statusCode, action).toBe(409);
      expect(stale.json().error.message).toBe('The teacher changed this since you opened it. Review the new version.');
    }
    expect(await storedClass(ctx, id)).toMatchObject({ status: 'pending', title: 'SCAM pay outside the site' });
    expect(await auditOf(ctx, id)).toEqual([]);
    // The admin's list shows the new content with a new version, which can be decided.
    const listed = (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/classes?status=pending&limit=100',
        headers: headersOf('admin'),
      })
    ).json() as { _id: string; title: string; price: number; version: string }[];
    const now = listed.find((c) => c._id === id)!;
    expect(now).toMatchObject({ title: 'SCAM pay outside the site', price: 9999 });
    expect(now.version).not.toBe(reviewed);
    expect((await moderate('admin', id, 'reject', { version: now.version })).statusCode).toBe(200);
    expect((await storedClass(ctx, id))!.status).toBe('rejected');
  });

  it('a decision without the version reviewed is refused (400)', async () => {
    const id = await insertClass();
    for (const action of ['approve', 'reject'] as const) {
      const res = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/classes/class-requests/${id}/${action}`,
        headers: headersOf('admin'),
        payload: {},
      });
      expect(res.statusCode, action).toBe(400);
    }
    expect((await storedClass(ctx, id))!.status).toBe('pending');
  });

  it('rejected → pending when its teacher edits it; the reason clears and the image stays', async () => {
    const id = await insertClass(actors.owner, { status: 'rejected', rejectionReason: 'Too short' });
    const res = await patch('owner', id, { description: 'Now with a week-by-week outline.', price: 30 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ modifiedCount: 1, success: true });
    expect(await storedClass(ctx, id)).toMatchObject({
      status: 'pending',
      rejectionReason: null,
      description: 'Now with a week-by-week outline.',
      priceCents: 3000,
      imageKey,
      title: 'Set-up class',
    });
    // Back in the queue: the admin can decide again.
    expect((await moderate('admin', id, 'approve')).statusCode).toBe(200);
  });

  it('an accepted class stays accepted when edited; the edit waits for review, the live class is unchanged', async () => {
    // DESIGN §4: class-revisions.test.ts covers the revision itself (review, approval, diff).
    const id = await insertClass(actors.owner, { status: 'accepted' });
    const before = await storedClass(ctx, id);
    const res = await patch('owner', id, { title: 'Renamed', image: secondImageUrl, category: 'video-editing' });
    expect(res.json()).toEqual({ modifiedCount: 1, success: true, pendingReview: true });
    expect(await storedClass(ctx, id)).toEqual(before);
    const bad = await patch('owner', id, { image: 'https://i.ibb.co/x.png' });
    expect(bad.statusCode).toBe(400);
    expect((await storedClass(ctx, id))!.imageKey).toBe(imageKey);
  });

  it('an edit that changes nothing reports modifiedCount 0', async () => {
    const id = await insertClass(actors.owner, { status: 'rejected', rejectionReason: 'r' });
    const res = await patch('owner', id, {});
    expect(res.json()).toEqual({ modifiedCount: 0, success: true });
    expect((await storedClass(ctx, id))!.status).toBe('rejected');
  });

  it('ignores status, e-mail, name, counters and teacher in an edit (mass assignment)', async () => {
    const id = await insertClass(actors.owner, { status: 'pending', enrollmentCount: 3 });
    const res = await patch('owner', id, {
      status: 'accepted',
      email: actors.otherTeacher.email,
      name: 'Hijacked',
      totalEnrollment: 999,
      teacherId: actors.otherTeacher.id,
      rejectionReason: 'x',
    });
    expect(res.json()).toEqual({ modifiedCount: 0, success: true });
    expect(await storedClass(ctx, id)).toMatchObject({
      status: 'pending',
      teacherEmail: actors.owner.email,
      teacherName: 'Olivia Owner',
      enrollmentCount: 3,
      teacherId: actors.owner.id,
      rejectionReason: null,
    });
    const withTitle = await patch('owner', id, { title: 'Legit', status: 'accepted', totalEnrollment: 999 });
    expect(withTitle.json()).toEqual({ modifiedCount: 1, success: true });
    expect(await storedClass(ctx, id)).toMatchObject({ title: 'Legit', status: 'pending', enrollmentCount: 3 });
  });

  it('exactly one of two racing moderation decisions wins', async () => {
    const secondAdmin = await createUser(ctx, 'admin');
    const id = await insertClass();
    const version = await shownVersion(id);
    const results = await Promise.all([
      moderate('admin', id, 'approve', { version }),
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/classes/class-requests/${id}/reject`,
        headers: secondAdmin.headers,
        payload: { version },
      }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await auditOf(ctx, id)).toHaveLength(1);
  });

  it('moderation answers 404 for unknown ids and ids that are not ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '1%20or%201=1']) {
      expect((await moderate('admin', id, 'approve')).statusCode, id).toBe(404);
      expect((await moderate('admin', id, 'reject')).statusCode, id).toBe(404);
    }
  });
});

describe('deleting', () => {
  it('deletes a class without paid enrollments (pending enrollments go with it); no audit for its teacher', async () => {
    const id = await insertClass(actors.owner, { status: 'accepted' });
    await enroll(id, actors.student, { paid: false });
    const res = await remove('owner', id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deletedCount: 1 });
    expect(await storedClass(ctx, id)).toBeUndefined();
    expect(await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.classId, id))).toEqual([]);
    expect(await auditOf(ctx, id)).toEqual([]);
    expect((await remove('owner', id)).statusCode).toBe(404);
  });

  it('archives a class with paid enrollments: hidden from the catalogue and lists, kept for its students', async () => {
    const id = await insertClass(actors.owner, { status: 'accepted', title: 'Archived one' });
    await enroll(id, actors.student, { paid: true });
    const res = await remove('owner', id);
    expect(res.json()).toEqual({ deletedCount: 1 });
    expect((await storedClass(ctx, id))!.status).toBe('archived');
    expect(await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.classId, id))).toHaveLength(1);

    expect((await getOne('anonymous', id)).statusCode).toBe(404);
    expect((await getOne('student', id)).statusCode).toBe(404);
    expect((await getOne('owner', id)).json().status).toBe('archived');
    const catalogue = await ctx.app.inject({ method: 'GET', url: '/api/classes?limit=100' });
    expect((catalogue.json() as { _id: string }[]).map((c) => c._id)).not.toContain(id);
    const mine = await ctx.app.inject({
      method: 'GET',
      url: `/api/classes/teacher/${actors.owner.email}?limit=100`,
      headers: actors.owner.headers,
    });
    expect((mine.json() as { _id: string }[]).map((c) => c._id)).not.toContain(id);
    // What the enrollment module reads says archived, so it refuses new enrollments.
    expect((await findClassForEnrollment(ctx.db, id))?.status).toBe('archived');

    // Archived is final: deleting again changes nothing, editing is a conflict.
    expect((await remove('owner', id)).json()).toEqual({ deletedCount: 0 });
    const edit = await patch('owner', id, { title: 'Back from the dead' });
    expect(edit.statusCode).toBe(409);
    expect((await storedClass(ctx, id))!.title).toBe('Archived one');
  });

  it('an admin may delete any class, and that is audited', async () => {
    const deleted = await insertClass(actors.owner, { status: 'pending' });
    expect((await remove('admin', deleted)).json()).toEqual({ deletedCount: 1 });
    expect(await auditOf(ctx, deleted)).toEqual([
      {
        action: 'class.delete',
        actorId: actors.admin.id,
        details: { archived: false, teacherEmail: actors.owner.email },
      },
    ]);
    const archived = await insertClass(actors.owner, { status: 'accepted' });
    await enroll(archived, actors.student, { paid: true });
    expect((await remove('admin', archived)).json()).toEqual({ deletedCount: 1 });
    expect(await auditOf(ctx, archived)).toEqual([
      {
        action: 'class.delete',
        actorId: actors.admin.id,
        details: { archived: true, teacherEmail: actors.owner.email },
      },
    ]);
  });
});

describe('GET /api/classes/:id visibility', () => {
  const statuses: ClassStatus[] = ['pending', 'accepted', 'rejected', 'archived', 'hidden'];
  const visible: Record<ClassStatus, Record<ClassRole, number>> = {
    pending: { anonymous: 404, student: 404, owner: 200, otherTeacher: 404, admin: 200 },
    accepted: { anonymous: 200, student: 200, owner: 200, otherTeacher: 200, admin: 200 },
    rejected: { anonymous: 404, student: 404, owner: 200, otherTeacher: 404, admin: 200 },
    archived: { anonymous: 404, student: 404, owner: 200, otherTeacher: 404, admin: 200 },
    hidden: { anonymous: 404, student: 404, owner: 200, otherTeacher: 404, admin: 200 },
  };
  const cells = statuses.flatMap((status) =>
    (Object.keys(visible[status]) as ClassRole[]).map((role) => ({ status, role, expected: visible[status][role] })),
  );

  it.each(cells)('a $status class to $role → $expected', async ({ status, role, expected }) => {
    const id = await insertClass(actors.owner, { status });
    const res = await getOne(role, id);
    expect(res.statusCode).toBe(expected);
    if (expected === 200) expect(res.json()._id).toBe(id);
    else expect(res.json().error.code).toBe('not_found');
  });

  it('answers 404 for unknown ids and ids that are not ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'abc', 'x'.repeat(64)]) {
      expect((await getOne('admin', id)).statusCode, id).toBe(404);
    }
  });
});

describe('permission matrix (every endpoint × anonymous, student, its teacher, another teacher, admin)', () => {
  interface Endpoint {
    name: string;
    call: (role: ClassRole, id: string) => ReturnType<typeof getOne>;
    expected: Record<ClassRole, number>;
  }
  const endpoints: Endpoint[] = [
    {
      name: 'POST /classes',
      call: (role) => create(role, validBody()),
      expected: { anonymous: 401, student: 403, owner: 200, otherTeacher: 200, admin: 403 },
    },
    {
      name: 'GET /classes',
      call: (role) => ctx.app.inject({ method: 'GET', url: '/api/classes', headers: headersOf(role) }),
      expected: { anonymous: 200, student: 200, owner: 200, otherTeacher: 200, admin: 200 },
    },
    {
      name: 'GET /classes/:id (pending)',
      call: (role, id) => getOne(role, id),
      expected: { anonymous: 404, student: 404, owner: 200, otherTeacher: 404, admin: 200 },
    },
    {
      // The public page shows accepted classes only, to everyone alike.
      name: 'GET /classes/:id/public (pending)',
      call: (role, id) => ctx.app.inject({ method: 'GET', url: `/api/classes/${id}/public`, headers: headersOf(role) }),
      expected: { anonymous: 404, student: 404, owner: 404, otherTeacher: 404, admin: 404 },
    },
    {
      name: 'GET /classes/suggestions',
      call: (role) =>
        ctx.app.inject({ method: 'GET', url: '/api/classes/suggestions?q=matrix', headers: headersOf(role) }),
      expected: { anonymous: 200, student: 200, owner: 200, otherTeacher: 200, admin: 200 },
    },
    {
      name: 'GET /classes/categories',
      call: (role) => ctx.app.inject({ method: 'GET', url: '/api/classes/categories', headers: headersOf(role) }),
      expected: { anonymous: 200, student: 200, owner: 200, otherTeacher: 200, admin: 200 },
    },
    {
      name: 'GET /classes/teacher/:email',
      call: (role) =>
        ctx.app.inject({ method: 'GET', url: `/api/classes/teacher/${actors.owner.email}`, headers: headersOf(role) }),
      expected: { anonymous: 401, student: 403, owner: 200, otherTeacher: 403, admin: 200 },
    },
    {
      name: 'GET /classes/:id/stats',
      call: (role, id) => ctx.app.inject({ method: 'GET', url: `/api/classes/${id}/stats`, headers: headersOf(role) }),
      expected: { anonymous: 401, student: 403, owner: 200, otherTeacher: 403, admin: 200 },
    },
    {
      name: 'PATCH /classes/:id',
      call: (role, id) => patch(role, id, { title: 'Changed by caller' }),
      expected: { anonymous: 401, student: 403, owner: 200, otherTeacher: 403, admin: 403 },
    },
    {
      name: 'DELETE /classes/:id',
      call: (role, id) => remove(role, id),
      expected: { anonymous: 401, student: 403, owner: 200, otherTeacher: 403, admin: 200 },
    },
    {
      name: 'PATCH /class-requests/:id/approve',
      call: (role, id) => moderate(role, id, 'approve'),
      expected: { anonymous: 401, student: 403, owner: 403, otherTeacher: 403, admin: 200 },
    },
    {
      name: 'PATCH /class-requests/:id/reject',
      call: (role, id) => moderate(role, id, 'reject', { reason: 'caller' }),
      expected: { anonymous: 401, student: 403, owner: 403, otherTeacher: 403, admin: 200 },
    },
  ];
  const cells = endpoints.flatMap((e) =>
    (Object.keys(e.expected) as ClassRole[]).map((role) => ({ ...e, role, status: e.expected[role] })),
  );

  it.each(cells)('$name as $role → $status', async ({ call, role, status }) => {
    // A fresh pending class of the owner per cell; a refused call must leave it exactly as it was.
    const id = await insertClass(actors.owner, { status: 'pending', title: 'Matrix class' });
    const before = await storedClass(ctx, id);
    const res = await call(role, id);
    expect(res.statusCode).toBe(status);
    if (status >= 400) {
      expect(res.json().error.code).toBe(
        status === 401 ? 'unauthenticated' : status === 403 ? 'forbidden' : 'not_found',
      );
      expect(await storedClass(ctx, id)).toEqual(before);
    }
  });
});

describe('IDOR: another teacher and the owner’s accepted class', () => {
  it('cannot edit, delete, read the figures of, or list the classes of someone else', async () => {
    const id = await insertClass(actors.owner, { status: 'accepted', title: 'Owned' });
    await enroll(id, actors.student, { paid: true });
    const before = await storedClass(ctx, id);
    expect((await patch('otherTeacher', id, { title: 'Stolen', price: 0.5 })).statusCode).toBe(403);
    expect((await remove('otherTeacher', id)).statusCode).toBe(403);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/classes/${id}/stats`, headers: actors.otherTeacher.headers }))
        .statusCode,
    ).toBe(403);
    for (const email of [actors.owner.email, actors.owner.email.toUpperCase()]) {
      const list = await ctx.app.inject({
        method: 'GET',
        url: `/api/classes/teacher/${encodeURIComponent(email)}`,
        headers: actors.otherTeacher.headers,
      });
      expect(list.statusCode, email).toBe(403);
    }
    // Even an admin may not edit someone else's class (only its teacher edits, spec §6).
    expect((await patch('admin', id, { title: 'Admin edit' })).statusCode).toBe(403);
    // A Bearer token of the other teacher is no better than their cookie.
    const token = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/jwt',
        headers: actors.otherTeacher.headers,
        payload: { email: actors.otherTeacher.email },
      })
    ).json().token;
    const viaToken = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/classes/${id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { title: 'Stolen' },
    });
    expect(viaToken.statusCode).toBe(403);
    expect(await storedClass(ctx, id)).toEqual(before);
  });
});

describe('GET /api/classes/teacher/:email', () => {
  it('lists the teacher’s classes in every status but archived, newest first, with X-Total-Count', async () => {
    const teacher = await createUser(ctx, 'teacher');
    const ids: string[] = [];
    for (const [i, status] of (['pending', 'accepted', 'rejected', 'archived'] as const).entries()) {
      ids.push(await insertClass(teacher, { status, createdAt: new Date(Date.now() - (10 - i) * DAY) }));
    }
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/classes/teacher/${teacher.email}`,
      headers: teacher.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect((res.json() as { _id: string }[]).map((c) => c._id)).toEqual([ids[2], ids[1], ids[0]]);
    const page2 = await ctx.app.inject({
      method: 'GET',
      url: `/api/classes/teacher/${teacher.email}?limit=2&page=2`,
      headers: actors.admin.headers,
    });
    expect((page2.json() as { _id: string }[]).map((c) => c._id)).toEqual([ids[0]]);
  });
});

describe('GET /api/classes/:id/stats', () => {
  /** Monday of the UTC week of `date`, as YYYY-MM-DD. */
  const weekOf = (date: Date) => {
    const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
    return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY).toISOString().slice(0, 10);
  };

  it('counts paid students (not carts, not refunded lines), revenue from them, and paid enrollments per week', async () => {
    const id = await insertClass(actors.owner, { status: 'accepted' });
    const students = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(ctx, 'student')));
    await enroll(id, students[0]!, { paid: true, priceCents: 1000, daysAgo: 0 });
    await enroll(id, students[1]!, { paid: true, priceCents: 2050, daysAgo: 14 });
    // A cart nobody paid, and a paid line refunded since: neither is a student (decision 003).
    await enroll(id, students[2]!, { paid: false, priceCents: 9900, daysAgo: 14 });
    await enroll(id, students[3]!, { paid: true, priceCents: 500, daysAgo: 200 });
    await enroll(id, students[4]!, { paid: true, priceCents: 700, daysAgo: 0 });
    await ctx.db
      .update(schema.enrollments)
      .set({ status: 'refunded', refundedAt: new Date() })
      .where(eq(schema.enrollments.studentId, students[4]!.id));

    const res = await ctx.app.inject({ method: 'GET', url: `/api/classes/${id}/stats`, headers: actors.owner.headers });
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats).toMatchObject({ paidStudents: 3, revenue: 35.5 });
    expect(stats).not.toHaveProperty('enrolledStudents');
    expect(stats.perWeek).toHaveLength(12);
    const weeks = stats.perWeek.map((w: { week: string }) => w.week);
    expect(weeks[11]).toBe(weekOf(new Date()));
    for (const [i, week] of weeks.entries()) {
      expect(new Date(`${week}T00:00:00Z`).getUTCDay(), week).toBe(1);
      if (i > 0) expect(Date.parse(week) - Date.parse(weeks[i - 1])).toBe(7 * DAY);
    }
    const count = (date: Date) => stats.perWeek.find((w: { week: string }) => w.week === weekOf(date))?.enrollments;
    expect(count(new Date())).toBe(1);
    expect(count(new Date(Date.now() - 14 * DAY))).toBe(1);
    // The payment of 200 days ago is outside the 12 weeks but still in the totals.
    expect(stats.perWeek.reduce((sum: number, w: { enrollments: number }) => sum + w.enrollments, 0)).toBe(2);
  });

  it('is all zeros for a class nobody took, and 404 for unknown ids', async () => {
    const id = await insertClass(actors.owner);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/classes/${id}/stats`, headers: actors.admin.headers });
    expect(res.json()).toMatchObject({ paidStudents: 0, revenue: 0 });
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: '/api/classes/not-an-id/stats',
      headers: actors.admin.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('for other modules', () => {
  it('toClassItem serializes a stored class with its counters', async () => {
    const accepted = await insertClass(actors.owner, {
      status: 'accepted',
      ratingSum: 9,
      reviewCount: 2,
      enrollmentCount: 7,
      priceCents: 1234,
    });
    const row = await findClassById(ctx.db, accepted);
    expect(row?.id).toBe(accepted);
    expect(toClassItem(row!, ctx.storage)).toMatchObject({
      _id: accepted,
      price: 12.34,
      totalEnrollment: 7,
      rating: 4.5,
      reviewCount: 2,
      image: imageUrl,
    });
    expect(await findClassById(ctx.db, 'not-a-uuid')).toBeNull();
  });

  it('findClassForEnrollment copies what an enrollment needs, whatever the status', async () => {
    for (const status of ['pending', 'accepted', 'rejected', 'archived'] as const) {
      const id = await insertClass(actors.owner, { status, priceCents: 990 });
      expect(await findClassForEnrollment(ctx.db, id), status).toMatchObject({
        id,
        teacherId: actors.owner.id,
        priceCents: 990,
        status,
      });
    }
  });
});
