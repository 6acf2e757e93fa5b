import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationItem, NotificationPage } from '@skillhive/shared/contracts/notifications';
import { NOTIFICATION_KINDS } from '@skillhive/shared/rules/notifications';
import { schema } from '../src/db/client.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  type Caller,
  createCaller,
  createClass,
  expectBadPagingRefused,
  itAnswersEachRole,
  MATRIX_ROLES,
  type MatrixRole,
  type TestClass,
} from './commerce-fixtures.ts';
import { sleep, waitFor } from './fault-helpers.ts';
import { createTestApp, type TestContext } from './harness.ts';
import { openSse, type SseConnection } from './sse-client.ts';

/*
 * The notification centre (decision 047): what creates an item, the list and its read marks, the
 * in-app preferences, bad input, who may call what, and the Server-Sent Events stream on a real
 * listening server (live items, replay after Last-Event-ID or ?after=, heartbeats, the per-person
 * cap, nothing buffered by compression, ended by the app's close).
 */

const STREAMS_PER_USER = 2;
let ctx: TestContext;
let origin: string;
let admin: Caller & { name: string };
let teacher: Caller & { name: string };
let otherTeacher: Caller & { name: string };
let student: Caller & { name: string };
let teacherClass: TestClass;
const opened: SseConnection[] = [];

beforeAll(async () => {
  ctx = await createTestApp({
    ...FAST_SIGNUP_ENV,
    NOTIFICATION_STREAMS_PER_USER: String(STREAMS_PER_USER),
    NOTIFICATION_HEARTBEAT_SECONDS: '1',
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  [admin, teacher, otherTeacher, student] = await Promise.all([
    createCaller(ctx, 'admin'),
    createCaller(ctx, 'teacher', { name: 'Tess Teacher' }),
    createCaller(ctx, 'teacher'),
    createCaller(ctx, 'student', { name: 'Stu Student' }),
  ]);
  teacherClass = await createClass(ctx, teacher, { title: 'Knife skills' });
});
afterAll(async () => {
  for (const stream of opened) stream.close();
  await ctx?.close();
});

async function stream(user: Caller | null, query = '', headers: Record<string, string> = {}) {
  const connection = await openSse(`${origin}/api/notifications/stream${query}`, { ...user?.headers, ...headers });
  opened.push(connection);
  return connection;
}

async function ask(user: Caller, body: string, classId = teacherClass.id): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/classes/${classId}/messages`,
    headers: user.headers,
    payload: { body },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { threadId: string }).threadId;
}

async function listOf(user: Caller, query = ''): Promise<NotificationPage & { total: number }> {
  const res = await ctx.app.inject({ url: `/api/notifications${query}`, headers: user.headers });
  expect(res.statusCode).toBe(200);
  return { ...(res.json() as NotificationPage), total: Number(res.headers['x-total-count']) };
}

const markRead = (user: Caller | null, id: string) =>
  ctx.app.inject({ method: 'POST', url: `/api/notifications/${id}/read`, headers: user?.headers ?? {} });
const markAllRead = (user: Caller) =>
  ctx.app.inject({ method: 'POST', url: '/api/notifications/read', headers: user.headers });
const setPreferences = (user: Caller, payload: unknown) =>
  ctx.app.inject({ method: 'PUT', url: '/api/notifications/preferences', headers: user.headers, payload });
const allOn = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, true]));

describe('a message notifies the person it is written to', () => {
  it('adds an item for the teacher, none for the sender, and links to the conversation', async () => {
    const asker = await createCaller(ctx, 'student', { name: 'Ada Asker' });
    const before = await listOf(teacher);
    const threadId = await ask(asker, 'Do I need my own knives?\nThanks');
    const after = await listOf(teacher);
    expect(after.unread).toBe(before.unread + 1);
    expect(after.total).toBe(before.total + 1);
    expect(after.items[0]).toMatchObject({
      kind: 'message',
      title: 'Ada Asker wrote about Knife skills',
      body: 'Do I need my own knives? Thanks',
      link: `/dashboard/messages/${threadId}`,
      readAt: null,
    });
    expect((await listOf(asker)).items).toEqual([]);
  });

  it('keeps markup as plain text and cuts a long message to one short line', async () => {
    const asker = await createCaller(ctx, 'student');
    await ask(asker, `<img src=x onerror=alert(1)> ${'word '.repeat(200)}`);
    const [item] = (await listOf(teacher)).items;
    expect(item!.body.startsWith('<img src=x onerror=alert(1)> word')).toBe(true);
    expect(item!.body.length).toBeLessThanOrEqual(280);
    expect(item!.body.endsWith('…')).toBe(true);
  });

  it('lists newest first, a page at a time', async () => {
    const asker = await createCaller(ctx, 'student');
    const threadId = await ask(asker, 'First question');
    await ctx.app.inject({
      method: 'POST',
      url: `/api/messages/threads/${threadId}/messages`,
      headers: asker.headers,
      payload: { body: 'Second question' },
    });
    const first = await listOf(teacher, '?limit=1');
    const second = await listOf(teacher, '?page=2&limit=1');
    expect(first.items.map((i) => i.body)).toEqual(['Second question']);
    expect(second.items.map((i) => i.body)).toEqual(['First question']);
    expect(Number(first.items[0]!._id)).toBeGreaterThan(Number(second.items[0]!._id));
  });

  it('marks one read, then all; another person’s item is 404 and unchanged', async () => {
    const reader = await createCaller(ctx, 'teacher');
    const cls = await createClass(ctx, reader, { title: 'Read marks' });
    const asker = await createCaller(ctx, 'student');
    await ask(asker, 'One', cls.id);
    await ask(student, 'Two', cls.id);
    const { items, unread } = await listOf(reader);
    expect(unread).toBe(2);
    const res = await markRead(reader, items[1]!._id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unread: 1 });
    expect((await markRead(reader, items[1]!._id)).json()).toEqual({ unread: 1 });
    const notTheirs = await markRead(otherTeacher, items[0]!._id);
    expect(notTheirs.statusCode).toBe(404);
    expect((await listOf(reader)).items[0]!.readAt).toBeNull();
    expect((await markAllRead(reader)).json()).toEqual({ unread: 0 });
    const read = await listOf(reader);
    expect(read.unread).toBe(0);
    expect(read.items.every((item) => item.readAt !== null)).toBe(true);
  });

  it('is read when its conversation is opened', async () => {
    const reader = await createCaller(ctx, 'teacher');
    const cls = await createClass(ctx, reader, { title: 'Opened' });
    const threadId = await ask(student, 'Open me', cls.id);
    expect((await listOf(reader)).unread).toBe(1);
    const opened = await ctx.app.inject({ url: `/api/messages/threads/${threadId}`, headers: reader.headers });
    expect(opened.statusCode).toBe(200);
    expect((await listOf(reader)).unread).toBe(0);
  });
});

describe('other events that notify', () => {
  it('an admin’s decision about a class tells its teacher', async () => {
    const pending = await createClass(ctx, teacher, { status: 'pending', title: 'Awaiting review' });
    const shown = await ctx.app.inject({ url: `/api/classes/${pending.id}`, headers: admin.headers });
    const approve = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/classes/class-requests/${pending.id}/approve`,
      headers: admin.headers,
      payload: { version: shown.json().version },
    });
    expect(approve.statusCode).toBe(200);
    expect((await listOf(teacher)).items[0]).toMatchObject({
      kind: 'moderation',
      title: 'Your class “Awaiting review” was approved',
      link: `/dashboard/my-class/${pending.id}`,
    });
  });

  it('a refund tells the student, linking to their payments', async () => {
    const buyer = await createCaller(ctx, 'student');
    const cls = await createClass(ctx, teacher, { title: 'Refunded class', priceCents: 2500 });
    const { paymentId } = await buy(ctx, buyer, [cls.id]);
    const refunded = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/payments/${paymentId}/refunds`,
      headers: admin.headers,
      payload: { reason: 'Class cancelled' },
    });
    expect(refunded.statusCode).toBeLessThan(300);
    expect((await listOf(buyer)).items[0]).toMatchObject({
      kind: 'refund',
      title: 'You are refunded $25.00',
      body: 'Refunded class',
      link: '/dashboard/paymentHistory',
    });
  });
});

describe('which kinds show (in-app preferences)', () => {
  it('are all on at first; a kind turned off adds nothing while its e-mail still follows the e-mail setting', async () => {
    const muted = await createCaller(ctx, 'teacher');
    const cls = await createClass(ctx, muted, { title: 'Muted' });
    const read = await ctx.app.inject({ url: '/api/notifications/preferences', headers: muted.headers });
    expect(read.json()).toEqual(allOn);
    const off = await setPreferences(muted, { ...allOn, message: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ ...allOn, message: false });
    await ask(student, 'Anyone there?', cls.id);
    expect((await listOf(muted)).items).toEqual([]);
    const mails = await ctx.db
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.to, muted.email.toLowerCase()), eq(schema.mailOutbox.kind, 'new-message')));
    expect(mails).toHaveLength(1);
    expect((await setPreferences(muted, allOn)).json()).toEqual(allOn);
    await ask(student, 'Now?', cls.id);
    expect((await listOf(muted)).items.map((i) => i.body)).toEqual(['Now?']);
  });

  it('refuses a body without every kind, or with a kind that is not true or false, naming the field', async () => {
    const missing = await setPreferences(student, { message: true });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().error.fields)).toContain('offer');
    const wrong = await setPreferences(student, { ...allOn, refund: 'no' });
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json().error.fields)).toEqual(['refund']);
  });
});

describe('bad input', () => {
  it('refuses bad paging, a malformed id, and a malformed cursor, naming the field', async () => {
    await expectBadPagingRefused((query) =>
      ctx.app.inject({ url: `/api/notifications${query}`, headers: student.headers }),
    );
    const tooMany = await ctx.app.inject({ url: '/api/notifications?limit=51', headers: student.headers });
    expect(tooMany.statusCode).toBe(400);
    expect(Object.keys(tooMany.json().error.fields)).toEqual(['limit']);
    const id = await markRead(student, 'abc');
    expect(id.statusCode).toBe(400);
    expect(Object.keys(id.json().error.fields)).toEqual(['id']);
    const after = await ctx.app.inject({ url: '/api/notifications/stream?after=-1', headers: student.headers });
    expect(after.statusCode).toBe(400);
    expect(Object.keys(after.json().error.fields)).toEqual(['after']);
    const lastEventId = await ctx.app.inject({
      url: '/api/notifications/stream',
      headers: { ...student.headers, 'last-event-id': 'yesterday' },
    });
    expect(lastEventId.statusCode).toBe(400);
    expect(Object.keys(lastEventId.json().error.fields)).toEqual(['last-event-id']);
    expect((await markRead(student, '999999999')).statusCode).toBe(404);
  });
});

describe('permission matrix', () => {
  let studentItemId: string;
  beforeAll(async () => {
    const cls = await createClass(ctx, student, { title: 'Student teaches' });
    await ask(otherTeacher, 'Matrix', cls.id);
    studentItemId = (await listOf(student)).items[0]!._id;
  });
  const callerOf = (role: Exclude<MatrixRole, 'anonymous'>): Caller =>
    ({ teacher, otherTeacher, admin, student })[role];

  itAnswersEachRole(
    [
      {
        name: 'GET /api/notifications (signed-in, their own)',
        method: 'GET',
        url: () => '/api/notifications',
        expected: { anonymous: 401, student: 200, teacher: 200, otherTeacher: 200, admin: 200 },
      },
      {
        name: 'POST /api/notifications/:id/read (their own; 404 for another’s)',
        method: 'POST',
        url: () => `/api/notifications/${studentItemId}/read`,
        expected: { anonymous: 401, student: 200, teacher: 404, otherTeacher: 404, admin: 404 },
      },
      {
        name: 'POST /api/notifications/read (signed-in, their own)',
        method: 'POST',
        url: () => '/api/notifications/read',
        expected: { anonymous: 401, student: 200, teacher: 200, otherTeacher: 200, admin: 200 },
      },
      {
        name: 'GET /api/notifications/preferences (signed-in, their own)',
        method: 'GET',
        url: () => '/api/notifications/preferences',
        expected: { anonymous: 401, student: 200, teacher: 200, otherTeacher: 200, admin: 200 },
      },
      {
        name: 'PUT /api/notifications/preferences (signed-in, their own)',
        method: 'PUT',
        url: () => '/api/notifications/preferences',
        body: () => allOn,
        expected: { anonymous: 401, student: 200, teacher: 200, otherTeacher: 200, admin: 200 },
      },
    ],
    { ctx: () => ctx, callerOf },
  );

  it('GET /api/notifications/stream: anonymous → 401, every signed-in role → 200 (an event stream)', async () => {
    for (const role of MATRIX_ROLES) {
      const connection = await stream(role === 'anonymous' ? null : callerOf(role));
      expect({ role, status: connection.status }).toEqual({ role, status: role === 'anonymous' ? 401 : 200 });
      if (role === 'anonymous') expect(JSON.parse(connection.text).error.code).toBe('unauthenticated');
      connection.close();
    }
  });
});

describe('the live stream', () => {
  it('is an event stream that nothing compresses or caches, with the security headers', async () => {
    const connection = await stream(student, '', { 'accept-encoding': 'gzip, deflate, br' });
    expect(connection.status).toBe(200);
    expect(connection.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(connection.headers.get('content-encoding')).toBeNull();
    expect(connection.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(connection.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(connection.headers.get('x-request-id')).toBeTruthy();
    connection.close();
  });

  it('sends a new item as it is created, only to its person, and heartbeats while quiet', async () => {
    const reader = await createCaller(ctx, 'teacher');
    const cls = await createClass(ctx, reader, { title: 'Live class' });
    const mine = await stream(reader);
    const someoneElse = await stream(otherTeacher);
    await sleep(1_300);
    expect(mine.comments).toContain('heartbeat');
    const started = Date.now();
    await ask(student, 'Are you live?', cls.id);
    const event = await mine.next(3_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    const item = JSON.parse(event.data) as NotificationItem;
    expect(event.event).toBe('notification');
    expect(event.id).toBe(item._id);
    expect(item).toEqual((await listOf(reader)).items[0]);
    await sleep(200);
    expect(someoneElse.pending()).toEqual([]);
    mine.close();
    someoneElse.close();
  });

  it('starts with the next new item, and resumes after Last-Event-ID or ?after= without losing any', async () => {
    const reader = await createCaller(ctx, 'teacher');
    const cls = await createClass(ctx, reader, { title: 'Resumed class' });
    await ask(student, 'Before the stream', cls.id);
    const first = await stream(reader);
    await ask(student, 'While connected', cls.id);
    const seen = await first.next();
    expect(JSON.parse(seen.data).body).toBe('While connected');
    first.close();

    const asker = await createCaller(ctx, 'student');
    await ask(asker, 'Missed one', cls.id);
    await ask(student, 'Missed two', cls.id);
    const resumed = await stream(reader, '', { 'last-event-id': seen.id! });
    const replayed = [await resumed.next(), await resumed.next()];
    expect(replayed.map((e) => JSON.parse(e.data).body)).toEqual(['Missed one', 'Missed two']);
    await ask(asker, 'Live again', cls.id);
    expect(JSON.parse((await resumed.next()).data).body).toBe('Live again');
    resumed.close();

    const byQuery = await stream(reader, `?after=${seen.id}`);
    const again = [await byQuery.next(), await byQuery.next(), await byQuery.next()];
    expect(again.map((e) => JSON.parse(e.data).body)).toEqual(['Missed one', 'Missed two', 'Live again']);
    byQuery.close();
  });

  it(`allows ${STREAMS_PER_USER} open streams a person, then 429 until one closes`, async () => {
    const reader = await createCaller(ctx, 'student');
    const streams = [await stream(reader), await stream(reader)];
    const refused = await stream(reader);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text).error.code).toBe('rate_limited');
    // Someone else is not counted against this person.
    const other = await stream(otherTeacher);
    expect(other.status).toBe(200);
    other.close();
    streams[0]!.close();
    await waitFor(async () => (await stream(reader)).status === 200, 5_000, 'a stream after one closed');
    for (const s of streams) s.close();
  });
});

describe('shutting down', () => {
  it('ends every open stream, so app.close() returns at once', async () => {
    const own = await createTestApp({ ...FAST_SIGNUP_ENV });
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (own.app.server.address() as AddressInfo).port;
    const user = await createCaller(own, 'student');
    const open = await openSse(`http://127.0.0.1:${port}/api/notifications/stream`, user.headers);
    expect(open.status).toBe(200);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    await open.ended;
  });
});
