import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { keyFromImageUrl } from '../src/modules/uploads/storage.public.ts';
import { buy } from './commerce-fixtures.ts';
import {
  type ClassActors,
  type ClassRole,
  auditOf,
  createClassCast,
  insertClassRow,
  storedClass,
} from './class-fixtures.ts';
import { createTestApp, createUser, type TestContext } from './harness.ts';

/**
 * Edits of accepted classes go through moderation (DESIGN §4): the edit is a pending revision,
 * the approved version stays on sale until an admin approves it.
 */

let ctx: TestContext;
let actors: ClassActors;
let imageUrl: string;
let imageKey: string;
let secondImageUrl: string;
let counter = 0;

beforeAll(async () => {
  ctx = await createTestApp();
  ({ actors, imageUrl, imageKey, secondImageUrl } = await createClassCast(ctx));
});
afterAll(async () => {
  await ctx?.close();
});

const headersOf = (role: ClassRole) => (role === 'anonymous' ? {} : actors[role].headers);

/** An accepted class of the owner, with a unique searchable title (set-up only). */
async function insertClass(overrides: Partial<typeof schema.classes.$inferInsert> = {}): Promise<string> {
  counter += 1;
  return insertClassRow(ctx, actors.owner, {
    title: `Watercolour basics ${counter}`,
    description: 'Washes, glazes and wet-in-wet.',
    priceCents: 1000,
    imageKey,
    category: 'graphic-design',
    status: 'accepted',
    ...overrides,
  });
}

async function revisionsOf(classId: string) {
  return ctx.db.select().from(schema.classRevisions).where(eq(schema.classRevisions.classId, classId));
}

const patch = (role: ClassRole, id: string, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'PATCH', url: `/api/classes/${id}`, headers: headersOf(role), payload });
const getOne = (role: ClassRole, id: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/classes/${id}`, headers: headersOf(role) });
const listPending = (role: ClassRole, query = '') =>
  ctx.app.inject({ method: 'GET', url: `/api/classes/revisions${query}`, headers: headersOf(role) });
const revisionOf = (role: ClassRole, classId: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/classes/${classId}/revision`, headers: headersOf(role) });
/** The version an admin is shown for a revision in the review queue (decision 027); a decided one has none. */
async function shownVersion(revisionId: string): Promise<string> {
  const queue = (await listPending('admin', '?limit=100')).json() as { _id: string; version: string }[];
  return queue.find((r) => r._id === revisionId)?.version ?? 'not-pending';
}
/** A decision on the version the admin is shown now, unless the payload names another. */
const decide = async (role: ClassRole, id: string, action: 'approve' | 'reject', payload?: Record<string, unknown>) =>
  ctx.app.inject({
    method: 'PATCH',
    url: `/api/classes/revisions/${id}/${action}`,
    headers: headersOf(role),
    payload: { version: await shownVersion(id), ...payload },
  });
type Listed = { _id: string; title: string; price: number };
type ClassRevisionItem = { _id: string; version: string; proposed: Record<string, unknown> };
async function catalogue(query: string): Promise<Listed[]> {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/classes?limit=50${query}` });
  return res.json() as Listed[];
}

/** The owner proposes `changes` to a fresh accepted class; returns the class and revision ids. */
async function propose(changes: Record<string, unknown>) {
  const classId = await insertClass();
  const res = await patch('owner', classId, changes);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ modifiedCount: 1, success: true, pendingReview: true });
  const [revision] = await revisionsOf(classId);
  return { classId, revisionId: revision!.id };
}

describe('an edit of an accepted class is a pending revision', () => {
  it('leaves the class on sale as approved: catalogue, detail, search, enrollment and payment use the old values', async () => {
    const classId = await insertClass({ title: 'Oilpainting fundamentals', priceCents: 1000 });
    const before = await storedClass(ctx, classId);
    const res = await patch('owner', classId, { price: 10000, title: 'Sculpture masterclass' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ modifiedCount: 1, success: true, pendingReview: true });

    expect(await storedClass(ctx, classId)).toEqual(before);
    expect(await revisionsOf(classId)).toMatchObject([
      { status: 'pending', title: 'Sculpture masterclass', priceCents: 1_000_000, description: null, imageKey: null },
    ]);

    expect((await getOne('anonymous', classId)).json()).toMatchObject({
      title: 'Oilpainting fundamentals',
      price: 10,
      status: 'accepted',
    });
    const listed = (await catalogue('')).find((c) => c._id === classId);
    expect(listed).toMatchObject({ title: 'Oilpainting fundamentals', price: 10 });
    expect((await catalogue('&q=oilpainting')).map((c) => c._id)).toContain(classId);
    expect((await catalogue('&q=sculpture')).map((c) => c._id)).not.toContain(classId);

    // A student enrolls and pays the approved price, not the proposed one.
    const student = await createUser(ctx, 'student');
    const { intent, paymentId } = await buy(ctx, student, [classId]);
    expect(intent.amount).toBe(1000); // cents, as the gateway takes it
    const [payment] = await ctx.db.select().from(schema.payments).where(eq(schema.payments.id, paymentId));
    expect(payment!.amountCents).toBe(1000);
  });

  it('a further edit updates the one pending revision; fields set back to the live value drop out', async () => {
    const { classId, revisionId } = await propose({ price: 99, title: 'Renamed once' });
    const again = await patch('owner', classId, { title: 'Renamed twice', description: 'New outline.' });
    expect(again.json()).toEqual({ modifiedCount: 1, success: true, pendingReview: true });
    expect(await revisionsOf(classId)).toMatchObject([
      { id: revisionId, status: 'pending', title: 'Renamed twice', priceCents: 9900, description: 'New outline.' },
    ]);
    // The web form sends every field: the unchanged ones are not part of the revision.
    const live = await storedClass(ctx, classId);
    const full = await patch('owner', classId, {
      title: 'Renamed twice',
      price: 10,
      description: 'New outline.',
      category: live!.category,
      image: imageUrl,
    });
    expect(full.json()).toEqual({ modifiedCount: 1, success: true, pendingReview: true });
    expect(await revisionsOf(classId)).toMatchObject([
      { id: revisionId, title: 'Renamed twice', priceCents: null, description: 'New outline.', category: null },
    ]);
    // Everything back as it is live: the revision is withdrawn.
    const back = await patch('owner', classId, { title: live!.title, description: live!.description });
    expect(back.json()).toEqual({ modifiedCount: 1, success: true, pendingReview: false });
    expect(await revisionsOf(classId)).toEqual([]);
    // An edit that changes nothing of an accepted class stores nothing.
    const same = await patch('owner', classId, { title: live!.title, price: 10 });
    expect(same.json()).toEqual({ modifiedCount: 0, success: true, pendingReview: false });
    expect(await revisionsOf(classId)).toEqual([]);
    expect(await storedClass(ctx, classId)).toEqual(live);
  });

  it('two edits at once end as one pending revision holding both changes', async () => {
    const classId = await insertClass();
    const results = await Promise.all([
      patch('owner', classId, { title: 'Raced title' }),
      patch('owner', classId, { price: 55 }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await revisionsOf(classId)).toMatchObject([{ status: 'pending', title: 'Raced title', priceCents: 5500 }]);
  });

  it('ignores status and other fields outside the form (mass assignment), and refuses images that are not ours', async () => {
    const classId = await insertClass();
    const before = await storedClass(ctx, classId);
    const res = await patch('owner', classId, { price: 20, status: 'pending', priceCents: 50, teacherId: 'x' });
    expect(res.json()).toEqual({ modifiedCount: 1, success: true, pendingReview: true });
    expect(await revisionsOf(classId)).toMatchObject([{ priceCents: 2000, status: 'pending' }]);
    expect((await patch('owner', classId, { image: 'https://i.ibb.co/x.png' })).statusCode).toBe(400);
    expect((await patch('owner', classId, { price: 100001 })).statusCode).toBe(400);
    expect(await storedClass(ctx, classId)).toEqual(before);
    expect(await revisionsOf(classId)).toMatchObject([{ priceCents: 2000, imageKey: null }]);
  });

  it('edits of pending and rejected classes still apply directly (they are not live)', async () => {
    const pending = await insertClass({ status: 'pending' });
    expect((await patch('owner', pending, { price: 42 })).json()).toEqual({ modifiedCount: 1, success: true });
    expect(await storedClass(ctx, pending)).toMatchObject({ status: 'pending', priceCents: 4200 });
    const rejected = await insertClass({ status: 'rejected', rejectionReason: 'Too short' });
    expect((await patch('owner', rejected, { title: 'Longer now' })).json()).toEqual({
      modifiedCount: 1,
      success: true,
    });
    expect(await storedClass(ctx, rejected)).toMatchObject({ status: 'pending', title: 'Longer now' });
    expect(await revisionsOf(pending)).toEqual([]);
    expect(await revisionsOf(rejected)).toEqual([]);
  });
});

describe('its teacher sees the pending revision', () => {
  it('GET /api/classes/:id/revision gives the proposed values, and My Classes marks the class', async () => {
    const { classId, revisionId } = await propose({ price: 250, image: secondImageUrl });
    const res = await revisionOf('owner', classId);
    expect(res.statusCode).toBe(200);
    const { revision } = res.json();
    expect(revision).toMatchObject({
      _id: revisionId,
      classId,
      status: 'pending',
      rejectionReason: null,
      email: actors.owner.email,
      name: 'Olivia Owner',
      current: { price: 10, image: imageUrl },
      proposed: { price: 250, image: secondImageUrl },
      decidedAt: null,
    });
    expect(Object.keys(revision.proposed).sort()).toEqual(['image', 'price']);

    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/classes/teacher/${actors.owner.email}?limit=50`,
      headers: actors.owner.headers,
    });
    const items = list.json() as { _id: string; revision: unknown }[];
    expect(items.find((c) => c._id === classId)!.revision).toEqual({ status: 'pending', rejectionReason: null });
    const untouched = await insertClass();
    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/classes/teacher/${actors.owner.email}?limit=50`,
      headers: actors.owner.headers,
    });
    expect(
      (again.json() as { _id: string; revision: unknown }[]).find((c) => c._id === untouched)!.revision,
    ).toBeNull();
    expect((await revisionOf('owner', untouched)).json()).toEqual({ revision: null });
  });
});

describe('admin review', () => {
  it('lists pending revisions oldest first with the live and the proposed values', async () => {
    const { classId, revisionId } = await propose({ title: 'Listed change', image: secondImageUrl });
    const res = await listPending('admin', '?limit=100');
    expect(res.statusCode).toBe(200);
    const items = res.json() as { _id: string; createdAt: string }[];
    expect(Number(res.headers['x-total-count'])).toBe(items.length);
    expect(items.find((r) => r._id === revisionId)).toMatchObject({
      classId,
      status: 'pending',
      current: { title: expect.stringMatching(/^Watercolour basics/), image: imageUrl, price: 10 },
      proposed: { title: 'Listed change', image: secondImageUrl },
    });
    const times = items.map((r) => r.createdAt);
    expect([...times].sort()).toEqual(times);
  });

  it('approve applies the revision to the class in one go, audited; the catalogue then shows it', async () => {
    const { classId, revisionId } = await propose({ price: 10000, title: 'Approved title', image: secondImageUrl });
    const res = await decide('admin', revisionId, 'approve');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ modifiedCount: 1, success: true });
    expect(await storedClass(ctx, classId)).toMatchObject({
      status: 'accepted',
      title: 'Approved title',
      priceCents: 1_000_000,
      imageKey: keyFromImageUrl(secondImageUrl, ctx.storage),
      description: 'Washes, glazes and wet-in-wet.',
    });
    expect(await revisionsOf(classId)).toMatchObject([
      { status: 'approved', decidedBy: actors.admin.id, decidedAt: expect.any(Date) },
    ]);
    expect(await auditOf(ctx, classId)).toEqual([
      {
        action: 'class.revision.approve',
        actorId: actors.admin.id,
        details: { teacherEmail: actors.owner.email, revisionId, fields: ['title', 'priceCents', 'imageKey'] },
      },
    ]);
    expect((await catalogue('&q=approved')).find((c) => c._id === classId)).toMatchObject({
      title: 'Approved title',
      price: 10000,
    });
    expect((await revisionOf('owner', classId)).json()).toEqual({ revision: null });
    expect((await listPending('admin', '?limit=100')).json().map((r: { _id: string }) => r._id)).not.toContain(
      revisionId,
    );
    for (const action of ['approve', 'reject'] as const) {
      const again = await decide('admin', revisionId, action);
      expect(again.statusCode, action).toBe(409);
      expect(again.json().error.message).toBe('This revision is approved, not pending');
    }
  });

  it('reject keeps the class as approved; its teacher sees the reason; a new edit is a new pending revision', async () => {
    const { classId, revisionId } = await propose({ price: 10000 });
    const before = await storedClass(ctx, classId);
    const res = await decide('admin', revisionId, 'reject', { reason: 'That price is not plausible' });
    expect(res.json()).toEqual({ modifiedCount: 1, success: true });
    expect(await storedClass(ctx, classId)).toEqual(before);
    expect(await auditOf(ctx, classId)).toEqual([
      {
        action: 'class.revision.reject',
        actorId: actors.admin.id,
        details: {
          teacherEmail: actors.owner.email,
          revisionId,
          fields: ['priceCents'],
          reason: 'That price is not plausible',
        },
      },
    ]);
    expect((await revisionOf('owner', classId)).json().revision).toMatchObject({
      _id: revisionId,
      status: 'rejected',
      rejectionReason: 'That price is not plausible',
      proposed: { price: 10000 },
    });
    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/classes/teacher/${actors.owner.email}?limit=100`,
      headers: actors.owner.headers,
    });
    expect((list.json() as { _id: string; revision: unknown }[]).find((c) => c._id === classId)!.revision).toEqual({
      status: 'rejected',
      rejectionReason: 'That price is not plausible',
    });
    expect((await decide('admin', revisionId, 'approve')).statusCode).toBe(409);

    const next = await patch('owner', classId, { price: 12 });
    expect(next.json()).toEqual({ modifiedCount: 1, success: true, pendingReview: true });
    const rows = await revisionsOf(classId);
    expect(rows.map((r) => r.status).sort()).toEqual(['pending', 'rejected']);
    expect((await revisionOf('owner', classId)).json().revision).toMatchObject({
      status: 'pending',
      proposed: { price: 12 },
    });
  });

  it('reject without a reason stores no reason', async () => {
    const { classId, revisionId } = await propose({ title: 'No reason given' });
    expect((await decide('admin', revisionId, 'reject')).statusCode).toBe(200);
    expect((await revisionsOf(classId))[0]).toMatchObject({ status: 'rejected', rejectionReason: null });
  });

  it('a decision applies the version reviewed: a teacher edit after the admin opened it refuses it (409)', async () => {
    const { classId, revisionId } = await propose({ title: 'Watercolour, week two' });
    const before = await storedClass(ctx, classId);
    const reviewed = await shownVersion(revisionId);
    expect(reviewed).not.toBe('not-pending');
    const edit = await patch('owner', classId, { title: 'SCAM pay outside the site', price: 9999 });
    expect(edit.json()).toEqual({ modifiedCount: 1, success: true, pendingReview: true });
    for (const action of ['approve', 'reject'] as const) {
      const stale = await decide('admin', revisionId, action, { version: reviewed });
      expect(stale.statusCode, action).toBe(409);
      expect(stale.json().error.message).toBe('The teacher changed this since you opened it. Review the new version.');
    }
    expect(await storedClass(ctx, classId)).toEqual(before);
    expect(await auditOf(ctx, classId)).toEqual([]);
    // The queue shows the new content under a new version; deciding that one applies what was shown.
    const queue = (await listPending('admin', '?limit=100')).json() as ClassRevisionItem[];
    const shown = queue.find((r) => r._id === revisionId)!;
    expect(shown.proposed).toMatchObject({ title: 'SCAM pay outside the site', price: 9999 });
    expect(shown.version).not.toBe(reviewed);
    expect((await decide('admin', revisionId, 'reject', { version: shown.version })).statusCode).toBe(200);
    expect(await storedClass(ctx, classId)).toEqual(before);
  });

  it('a decision without the version reviewed is refused (400)', async () => {
    const { classId, revisionId } = await propose({ title: 'No version sent' });
    for (const action of ['approve', 'reject'] as const) {
      const res = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/classes/revisions/${revisionId}/${action}`,
        headers: headersOf('admin'),
        payload: {},
      });
      expect(res.statusCode, action).toBe(400);
    }
    expect((await revisionsOf(classId))[0]!.status).toBe('pending');
  });

  it('exactly one of two racing decisions wins', async () => {
    const secondAdmin = await createUser(ctx, 'admin');
    const { classId, revisionId } = await propose({ price: 77 });
    const version = await shownVersion(revisionId);
    const results = await Promise.all([
      decide('admin', revisionId, 'approve', { version }),
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/classes/revisions/${revisionId}/reject`,
        headers: secondAdmin.headers,
        payload: { version },
      }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await auditOf(ctx, classId)).toHaveLength(1);
  });

  it('answers 404 for unknown ids and ids that are not ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '1%20or%201=1']) {
      expect((await decide('admin', id, 'approve')).statusCode, id).toBe(404);
      expect((await decide('admin', id, 'reject', { reason: 'x' })).statusCode, id).toBe(404);
      expect((await revisionOf('admin', id)).statusCode, id).toBe(404);
    }
    expect((await listPending('admin', '?page=0')).statusCode).toBe(400);
    expect((await listPending('admin', '?limit=abc')).statusCode).toBe(400);
    const { revisionId } = await propose({ title: 'Long reason' });
    expect((await decide('admin', revisionId, 'reject', { reason: 'x'.repeat(501) })).statusCode).toBe(400);
  });
});

describe('deleting a class drops its pending revision', () => {
  it('deleted (no paid enrollments): the revision goes with it', async () => {
    const { classId } = await propose({ price: 30 });
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/classes/${classId}`,
      headers: actors.owner.headers,
    });
    expect(res.json()).toEqual({ deletedCount: 1 });
    expect(await revisionsOf(classId)).toEqual([]);
  });

  it('archived (paid enrollments): the pending revision is dropped, the class cannot be edited', async () => {
    const { classId, revisionId } = await propose({ price: 30 });
    await buy(ctx, await createUser(ctx, 'student'), [classId]);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/classes/${classId}`,
      headers: actors.owner.headers,
    });
    expect(res.json()).toEqual({ deletedCount: 1 });
    expect((await storedClass(ctx, classId))!.status).toBe('archived');
    expect(await revisionsOf(classId)).toEqual([]);
    expect((await decide('admin', revisionId, 'approve')).statusCode).toBe(404);
    expect((await patch('owner', classId, { price: 31 })).statusCode).toBe(409);
  });
});

describe('permission matrix (every revision endpoint × anonymous, student, its teacher, another teacher, admin)', () => {
  interface Endpoint {
    name: string;
    call: (role: ClassRole, ids: { classId: string; revisionId: string }) => ReturnType<typeof getOne>;
    expected: Record<ClassRole, number>;
  }
  const endpoints: Endpoint[] = [
    {
      name: 'GET /classes/revisions',
      call: (role) => listPending(role),
      expected: { anonymous: 401, student: 403, owner: 403, otherTeacher: 403, admin: 200 },
    },
    {
      name: 'GET /classes/:id/revision',
      call: (role, { classId }) => revisionOf(role, classId),
      expected: { anonymous: 401, student: 403, owner: 200, otherTeacher: 403, admin: 200 },
    },
    {
      name: 'PATCH /classes/revisions/:id/approve',
      call: (role, { revisionId }) => decide(role, revisionId, 'approve'),
      expected: { anonymous: 401, student: 403, owner: 403, otherTeacher: 403, admin: 200 },
    },
    {
      name: 'PATCH /classes/revisions/:id/reject',
      call: (role, { revisionId }) => decide(role, revisionId, 'reject', { reason: 'caller' }),
      expected: { anonymous: 401, student: 403, owner: 403, otherTeacher: 403, admin: 200 },
    },
    {
      name: 'PATCH /classes/:id (another teacher cannot propose)',
      call: (role, { classId }) => patch(role, classId, { price: 0.5 }),
      expected: { anonymous: 401, student: 403, owner: 200, otherTeacher: 403, admin: 403 },
    },
  ];
  const cells = endpoints.flatMap((e) =>
    (Object.keys(e.expected) as ClassRole[]).map((role) => ({ ...e, role, status: e.expected[role] })),
  );

  it.each(cells)('$name as $role → $status', async ({ call, role, status }) => {
    // A fresh accepted class with a pending revision per cell; a refused call changes neither.
    const ids = await propose({ title: 'Matrix change' });
    const classBefore = await storedClass(ctx, ids.classId);
    const revisionsBefore = await revisionsOf(ids.classId);
    const res = await call(role, ids);
    expect(res.statusCode).toBe(status);
    if (status >= 400) {
      expect(res.json().error.code).toBe(status === 401 ? 'unauthenticated' : 'forbidden');
      expect(await storedClass(ctx, ids.classId)).toEqual(classBefore);
      expect(await revisionsOf(ids.classId)).toEqual(revisionsBefore);
    }
  });
});

describe('OpenAPI', () => {
  it('documents every revision endpoint with a tag, an operationId and who may call it', async () => {
    const spec = (await ctx.app.inject('/api/docs/json')).json();
    const expected: [string, string, string][] = [
      ['/api/classes/revisions', 'get', 'listClassRevisions'],
      ['/api/classes/{id}/revision', 'get', 'getClassRevision'],
      ['/api/classes/revisions/{id}/approve', 'patch', 'approveClassRevision'],
      ['/api/classes/revisions/{id}/reject', 'patch', 'rejectClassRevision'],
    ];
    for (const [path, method, operationId] of expected) {
      const operation = spec.paths[path]?.[method];
      expect(operation?.operationId, `${method} ${path}`).toBe(operationId);
      expect(operation.tags).toEqual(['classes']);
      expect(operation.summary).toMatch(/\((admins only|its teacher, or an admin)\)$/);
    }
  });
});
