import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './harness.ts';
import { FAST_SIGNUP_ENV, buy, createCaller, type Caller, createClass } from './commerce-fixtures.ts';

/** A teacher's reply to a review of their class (decision 046). */
let ctx: TestContext;
let teacher: Caller & { name: string };
let otherTeacher: Caller;
let student: Caller;
let admin: Caller;
let classId: string;
let reviewId: string;

beforeAll(async () => {
  ctx = await createTestApp(FAST_SIGNUP_ENV);
  [teacher, otherTeacher, student, admin] = await Promise.all([
    createCaller(ctx, 'teacher', { name: 'Tess Teacher' }),
    createCaller(ctx, 'teacher'),
    createCaller(ctx, 'student'),
    createCaller(ctx, 'admin'),
  ]);
  classId = (await createClass(ctx, teacher, { title: 'Replied class' })).id;
  await buy(ctx, student, [classId]);
  const review = await ctx.app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: student.headers,
    payload: { classId, rating: 3, details: 'Good, but fast.' },
  });
  expect(review.statusCode).toBe(201);
  reviewId = review.json().insertedId;
});
afterAll(async () => {
  await ctx?.close();
});

function reply(method: 'POST' | 'PATCH', user: Caller | null, id: string, payload: unknown) {
  return ctx.app.inject({
    method,
    url: `/api/reviews/${id}/reply`,
    headers: user?.headers ?? {},
    payload: payload as Record<string, unknown>,
  });
}

async function publicReviews() {
  const res = await ctx.app.inject(`/api/reviews?classId=${classId}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { _id: string; reply: { text: string } | null }[];
}

describe('replies to reviews: permission matrix', () => {
  const refused: [who: string, caller: () => Caller | null, status: number][] = [
    ['anonymous', () => null, 401],
    ['the student who wrote the review', () => student, 403],
    ['an admin (no teacher)', () => admin, 403],
    ['another teacher', () => otherTeacher, 404],
  ];
  it.each(refused)('refuses %s on create and edit', async (_who, caller, status) => {
    expect((await reply('POST', caller(), reviewId, { text: 'Hi' })).statusCode).toBe(status);
    expect((await reply('PATCH', caller(), reviewId, { text: 'Hi' })).statusCode).toBe(status);
  });

  it("lets the class's teacher reply once, shows it under the review, and lets them edit it", async () => {
    expect((await publicReviews()).find((r) => r._id === reviewId)?.reply).toBeNull();
    // Editing before there is a reply finds none.
    expect((await reply('PATCH', teacher, reviewId, { text: 'Early' })).statusCode).toBe(404);

    const created = await reply('POST', teacher, reviewId, { text: '  Thanks, I will slow down.  ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ reviewId, text: 'Thanks, I will slow down.' });
    expect((await publicReviews()).find((r) => r._id === reviewId)?.reply).toMatchObject({
      text: 'Thanks, I will slow down.',
    });

    const again = await reply('POST', teacher, reviewId, { text: 'Second' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('You already replied to this review: edit your reply instead');

    const edited = await reply('PATCH', teacher, reviewId, { text: 'Thanks! Slower from next week.' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()._id).toBe(created.json()._id);
    expect((await publicReviews()).find((r) => r._id === reviewId)?.reply?.text).toBe('Thanks! Slower from next week.');
    // The latest reviews (home page) carry it too.
    const latest = await ctx.app.inject('/api/reviews?limit=50');
    expect(latest.json().find((r: { _id: string }) => r._id === reviewId).reply.text).toBe(
      'Thanks! Slower from next week.',
    );
    // Another teacher still cannot edit it.
    expect((await reply('PATCH', otherTeacher, reviewId, { text: 'Mine now' })).statusCode).toBe(404);
  });
});

describe('replies to reviews: bad input', () => {
  it.each([
    ['empty', { text: '' }, /Write a reply/],
    ['blank', { text: '   \n ' }, /Write a reply/],
    ['missing', {}, /Write a reply/],
    ['too long', { text: 'x'.repeat(2001) }, /at most 2000 characters/],
    ['10,000 characters', { text: 'x'.repeat(10_000) }, /at most 2000 characters/],
    ['not text', { text: 42 }, /Write a reply/],
  ])('answers 400 naming the field for %s text', async (_what, payload, message) => {
    for (const method of ['POST', 'PATCH'] as const) {
      const res = await reply(method, teacher, reviewId, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
      expect(res.json().error.fields.text).toMatch(message);
    }
  });

  it('answers 404 for an unknown review or an id that is no uuid', async () => {
    expect((await reply('POST', teacher, randomUUID(), { text: 'Hi' })).statusCode).toBe(404);
    expect((await reply('POST', teacher, 'not-a-uuid', { text: 'Hi' })).statusCode).toBe(404);
  });

  it('stores HTML as text and answers it back unchanged, never as markup', async () => {
    const other = await createCaller(ctx, 'student');
    await buy(ctx, other, [classId]);
    const review = await ctx.app.inject({
      method: 'POST',
      url: '/api/reviews',
      headers: other.headers,
      payload: { classId, rating: 5 },
    });
    const html = '<script>alert(1)</script><b>bold</b>';
    const res = await reply('POST', teacher, review.json().insertedId, { text: html });
    expect(res.statusCode).toBe(201);
    expect((await publicReviews()).find((r) => r._id === review.json().insertedId)?.reply?.text).toBe(html);
    // A full 2,000 characters is accepted.
    expect((await reply('PATCH', teacher, review.json().insertedId, { text: 'y'.repeat(2000) })).statusCode).toBe(200);
  });
});

describe('reporting a reply (decision 046)', () => {
  async function report(user: Caller, targetId: string) {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/reports',
      headers: user.headers,
      payload: { targetType: 'reply', targetId, reason: 'abuse', details: 'Rude answer' },
    });
  }

  it('lets anyone signed in but its teacher report a reply; an admin who hides it takes it off every list', async () => {
    const reader = await createCaller(ctx, 'student');
    const replyId = (await publicReviews()).find((r) => r._id === reviewId)?.reply as unknown as { _id: string };
    expect(replyId._id).toMatch(/^[0-9a-f-]{36}$/);

    // Its own teacher cannot report it; an unknown reply or an id that is no uuid is not found.
    expect((await report(teacher, replyId._id)).statusCode).toBe(409);
    expect((await report(reader, randomUUID())).statusCode).toBe(404);
    expect((await report(reader, 'not-a-uuid')).statusCode).toBe(404);

    const reported = await report(reader, replyId._id);
    expect(reported.statusCode).toBe(201);
    const queue = await ctx.app.inject({ url: '/api/admin/reports?status=open&limit=100', headers: admin.headers });
    const item = (
      queue.json() as { _id: string; targetId: string; targetPath: string; targetLabel: string; ownerName: string }[]
    ).find((r) => r.targetId === replyId._id);
    expect(item).toMatchObject({
      targetPath: `/classes/${classId}`,
      ownerName: 'Tess Teacher',
      targetLabel: expect.stringContaining('Reply from the teacher'),
    });

    const hidden = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/reports/${item!._id}/decision`,
      headers: admin.headers,
      payload: { action: 'hide' },
    });
    expect(hidden.statusCode).toBe(200);
    // The review stays; its reply is gone from the class page and the latest reviews.
    const review = (await publicReviews()).find((r) => r._id === reviewId);
    expect(review?.reply).toBeNull();
    const latest = await ctx.app.inject('/api/reviews?limit=50');
    expect(latest.json().find((r: { _id: string }) => r._id === reviewId).reply).toBeNull();
    // A hidden reply cannot be reported again, nor edited back or replaced by its teacher.
    expect((await report(await createCaller(ctx, 'student'), replyId._id)).statusCode).toBe(404);
    for (const method of ['PATCH', 'POST'] as const) {
      const res = await reply(method, teacher, reviewId, { text: 'Back again' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toMatch(/^An admin hid your reply/);
    }
  });
});
