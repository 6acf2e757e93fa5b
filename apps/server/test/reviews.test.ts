import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/db/client.ts';
import { createTestApp, type TestContext } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  createCaller,
  type Caller,
  classCounters,
  createClass,
  enrolOk,
  type TestClass,
} from './commerce-fixtures.ts';

let ctx: TestContext;
let teacher: Caller & { name: string };
let reviewer: Caller;
let paidClass: TestClass;

beforeAll(async () => {
  ctx = await createTestApp(FAST_SIGNUP_ENV);
  [teacher, reviewer] = await Promise.all([
    createCaller(ctx, 'teacher'),
    createCaller(ctx, 'student', { name: 'Ada Reviewer', image: 'https://example.test/ada.png' }),
  ]);
  paidClass = await createClass(ctx, teacher, { title: 'Reviewed class' });
  await buy(ctx, reviewer, [paidClass.id]);
});
afterAll(async () => {
  await ctx?.close();
});

function postReview(user: Caller | null, payload: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/api/reviews', headers: user?.headers ?? {}, payload });
}

describe('POST /api/reviews', () => {
  it('stores a paid student’s review and counts it on the class; a second post edits it', async () => {
    const created = await postReview(reviewer, {
      classId: paidClass.id,
      rating: 4,
      details: '  Clear and practical.  ',
    });
    expect(created.statusCode).toBe(201);
    const { insertedId } = created.json();
    expect(created.json()).toEqual({ insertedId: expect.any(String), created: true });
    expect(await classCounters(ctx, paidClass.id)).toMatchObject({ ratingSum: 4, reviewCount: 1 });
    const [row] = await ctx.db.select().from(schema.reviews).where(eq(schema.reviews.id, insertedId));
    expect(row).toMatchObject({
      classId: paidClass.id,
      studentId: reviewer.id,
      rating: 4,
      details: 'Clear and practical.',
    });

    const edited = await postReview(reviewer, { classId: paidClass.id, rating: 2 });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toEqual({ insertedId, created: false });
    expect(await classCounters(ctx, paidClass.id)).toMatchObject({ ratingSum: 2, reviewCount: 1 });
    const rows = await ctx.db.select().from(schema.reviews).where(eq(schema.reviews.classId, paidClass.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ rating: 2, details: '' });
    // Class responses carry the average and the count.
    const cls = await ctx.app.inject(`/api/classes/${paidClass.id}`);
    expect(cls.json()).toMatchObject({ rating: 2, reviewCount: 1, totalEnrollment: 1 });
  });

  it('keeps the class counters right when two students review at once', async () => {
    const cls = await createClass(ctx, teacher);
    const [a, b] = await Promise.all([createCaller(ctx), createCaller(ctx)]);
    await buy(ctx, a, [cls.id]);
    await buy(ctx, b, [cls.id]);
    const results = await Promise.all([
      postReview(a, { classId: cls.id, rating: 5 }),
      postReview(b, { classId: cls.id, rating: 3 }),
      postReview(a, { classId: cls.id, rating: 1 }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 201, 201]);
    const rows = await ctx.db.select().from(schema.reviews).where(eq(schema.reviews.classId, cls.id));
    expect(rows).toHaveLength(2);
    const counters = await classCounters(ctx, cls.id);
    expect(counters.reviewCount).toBe(2);
    expect(counters.ratingSum).toBe(rows.reduce((sum, r) => sum + r.rating, 0));
  });

  it('refuses students without a paid enrollment (409, a business refusal), also with a pending one', async () => {
    const cls = await createClass(ctx, teacher);
    const student = await createCaller(ctx);
    expect((await postReview(student, { classId: cls.id, rating: 5 })).statusCode).toBe(409);
    await enrolOk(ctx, student, cls.id);
    const res = await postReview(student, { classId: cls.id, rating: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Only students who paid for this class can review it');
    expect((await postReview(teacher, { classId: cls.id, rating: 5 })).statusCode).toBe(409);
    expect((await postReview(null, { classId: cls.id, rating: 5 })).statusCode).toBe(401);
    expect(await classCounters(ctx, cls.id)).toMatchObject({ ratingSum: 0, reviewCount: 0 });
  });

  it.each([
    [{ rating: 0 }, 'Rating must be 1 to 5'],
    [{ rating: 6 }, 'Rating must be 1 to 5'],
    [{ rating: 2.5 }, 'Rating must be a whole number'],
    [{ rating: 'five' }, undefined],
    [{}, undefined],
    [{ rating: 3, details: 'x'.repeat(1001) }, 'Review must be at most 1000 characters'],
  ])('rejects %j with 400', async (fields, message) => {
    const res = await postReview(reviewer, { classId: paidClass.id, ...fields });
    expect(res.statusCode).toBe(400);
    if (message) expect(res.json().error.message).toBe(message);
  });

  it('accepts 1000 characters of details', async () => {
    const res = await postReview(reviewer, { classId: paidClass.id, rating: 5, details: 'y'.repeat(1000) });
    expect(res.statusCode).toBe(200);
  });

  it('answers 404 for an unknown class or an id that is not one', async () => {
    expect((await postReview(reviewer, { classId: randomUUID(), rating: 5 })).statusCode).toBe(404);
    expect((await postReview(reviewer, { classId: 'nope', rating: 5 })).statusCode).toBe(404);
  });
});

describe('GET /api/reviews/mine', () => {
  it('answers the caller’s own review to fill the form again, and nobody else’s', async () => {
    const student = await createCaller(ctx, 'student');
    const cls = await createClass(ctx, teacher, { title: 'Mine to edit' });
    await buy(ctx, student, [cls.id]);
    const mine = (query = '') => ctx.app.inject({ url: `/api/reviews/mine${query}`, headers: student.headers });
    expect((await mine()).json()).toEqual([]);
    expect((await mine()).headers['x-total-count']).toBe('0');

    expect((await postReview(student, { classId: cls.id, rating: 4, details: 'Well paced.' })).statusCode).toBe(201);
    const res = await mine(`?classId=${cls.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        _id: expect.any(String),
        classId: cls.id,
        rating: 4,
        details: 'Well paced.',
        hidden: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    // An edit shows at once.
    expect((await postReview(student, { classId: cls.id, rating: 3, details: 'Fast.' })).statusCode).toBe(200);
    expect((await mine()).json()).toEqual([expect.objectContaining({ classId: cls.id, rating: 3, details: 'Fast.' })]);

    // Another reviewer's list holds only theirs; the teacher has none.
    const others = await ctx.app.inject({ url: '/api/reviews/mine', headers: reviewer.headers });
    expect(others.json().map((r: { classId: string }) => r.classId)).not.toContain(cls.id);
    expect((await ctx.app.inject({ url: '/api/reviews/mine', headers: teacher.headers })).json()).toEqual([]);
  });

  it('refuses bad paging with 400 and treats an id that is no id as naming nothing', async () => {
    const bad = await ctx.app.inject({ url: '/api/reviews/mine?limit=0', headers: reviewer.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation_error');
    const odd = await ctx.app.inject({ url: '/api/reviews/mine?classId=abc', headers: reviewer.headers });
    expect(odd.statusCode).toBe(200);
    expect(odd.json()).toEqual([]);
    expect((await ctx.app.inject({ url: '/api/reviews/mine' })).statusCode).toBe(401);
  });
});

describe('GET /api/reviews', () => {
  it('is public and lists reviews newest first with reviewer and class', async () => {
    const res = await ctx.app.inject('/api/reviews');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(Number(res.headers['x-total-count'])).toBe(list.length);
    const mine = list.find((r: { classId: string; name: string }) => r.classId === paidClass.id);
    expect(mine).toEqual({
      _id: expect.any(String),
      rating: 5,
      image: 'https://example.test/ada.png',
      details: 'y'.repeat(1000),
      name: 'Ada Reviewer',
      classId: paidClass.id,
      classTitle: 'Reviewed class',
      createdAt: expect.any(String),
      reply: null,
    });
    const times = list.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('pages 20 at a time by default; ?limit= and ?classId= narrow it', async () => {
    // 25 reviews of one class, written directly with distinct times (set-up, not the API under test).
    const cls = await createClass(ctx, teacher, { title: 'Popular' });
    const base = Date.now() - 1000 * 60 * 60;
    const people = Array.from({ length: 25 }, (_, i) => ({
      id: randomUUID(),
      name: `Reader ${i}`,
      email: `reader.${randomUUID()}@example.test`,
    }));
    await ctx.db.insert(schema.users).values(people);
    await ctx.db.insert(schema.reviews).values(
      people.map((p, i) => ({
        classId: cls.id,
        studentId: p.id,
        rating: 1 + (i % 5),
        details: `Review ${i}`,
        createdAt: new Date(base + i * 1000),
      })),
    );

    const page1 = await ctx.app.inject(`/api/reviews?classId=${cls.id}`);
    expect(page1.json()).toHaveLength(20);
    expect(page1.headers['x-total-count']).toBe('25');
    expect(page1.json()[0].details).toBe('Review 24');
    const page2 = await ctx.app.inject(`/api/reviews?classId=${cls.id}&page=2`);
    expect(page2.json().map((r: { details: string }) => r.details)).toEqual([
      'Review 4',
      'Review 3',
      'Review 2',
      'Review 1',
      'Review 0',
    ]);
    const limited = await ctx.app.inject(`/api/reviews?classId=${cls.id}&limit=3`);
    expect(limited.json()).toHaveLength(3);
    expect((await ctx.app.inject('/api/reviews?limit=1000')).statusCode).toBe(400);
    const none = await ctx.app.inject('/api/reviews?classId=not-an-id');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });
});
