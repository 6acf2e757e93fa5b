import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { schema } from '../src/db/client.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  type Caller,
  createCaller,
  createClass,
  itAnswersEachRole,
  type MatrixRole,
  type TestClass,
} from './commerce-fixtures.ts';
import { createTestApp, latestMail, type TestContext } from './harness.ts';

/*
 * Messages between a person and a class's teacher (decision 045): asking from the class page,
 * answering in the thread, who may read it, what the other side is shown, the mail, bad input,
 * suspensions, the off-platform flag and reports of a message (decision 043).
 */

let ctx: TestContext;
let admin: Caller;
let teacher: Caller & { name: string; email: string };
let otherTeacher: Caller & { name: string };
let student: Caller & { name: string; email: string };
let asker: Caller & { name: string; email: string };
let teacherClass: TestClass;

const TEACHER_PHONE = '+44 7700 900123';

beforeAll(async () => {
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV, RATE_LIMIT_MESSAGES_PER_HOUR: '30' });
  [admin, teacher, otherTeacher, student, asker] = await Promise.all([
    createCaller(ctx, 'admin'),
    createCaller(ctx, 'teacher', { name: 'Tess Teacher', phone: TEACHER_PHONE }),
    createCaller(ctx, 'teacher'),
    createCaller(ctx, 'student', { name: 'Stu Student' }),
    createCaller(ctx, 'student', { name: 'Ada Asker' }),
  ]);
  teacherClass = await createClass(ctx, teacher, { title: 'Knife skills' });
});
afterAll(async () => {
  await ctx?.close();
});

function ask(user: Caller | null, classId: string, body: unknown) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/classes/${classId}/messages`,
    headers: user?.headers ?? {},
    payload: { body },
  });
}

function answer(user: Caller | null, threadId: string, body: unknown) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/messages/threads/${threadId}/messages`,
    headers: user?.headers ?? {},
    payload: { body },
  });
}

function thread(user: Caller | null, threadId: string) {
  return ctx.app.inject({ url: `/api/messages/threads/${threadId}`, headers: user?.headers ?? {} });
}

async function inbox(user: Caller) {
  const res = await ctx.app.inject({ url: '/api/messages/threads', headers: user.headers });
  expect(res.statusCode).toBe(200);
  return res.json() as Array<{
    _id: string;
    role: string;
    unread: boolean;
    lastMessagePreview: string;
    classTitle: string;
    other: Record<string, unknown>;
  }>;
}

async function askOk(user: Caller, classId: string, body: string) {
  const res = await ask(user, classId, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { threadId: string; insertedId: string };
}

async function reportsOf(messageId: string) {
  return ctx.db
    .select()
    .from(schema.reports)
    .where(and(eq(schema.reports.targetType, 'message'), eq(schema.reports.targetId, messageId)));
}

describe('asking a teacher and answering', () => {
  it('a signed-in person asks before buying; the teacher sees it unread in their inbox, answers, and the asker sees the answer', async () => {
    const sent = await askOk(asker, teacherClass.id, '  Is this class right for a beginner?  ');
    const teacherInbox = await inbox(teacher);
    const row = teacherInbox.find((t) => t._id === sent.threadId);
    expect(row).toMatchObject({
      role: 'teacher',
      unread: true,
      classTitle: 'Knife skills',
      lastMessagePreview: 'Is this class right for a beginner?',
      other: { _id: asker.id, name: 'Ada Asker' },
    });
    // The asker wrote it: not unread for them.
    expect((await inbox(asker)).find((t) => t._id === sent.threadId)).toMatchObject({ role: 'student', unread: false });

    const read = await thread(teacher, sent.threadId);
    expect(read.statusCode).toBe(200);
    expect(read.json().messages).toEqual([
      expect.objectContaining({ senderId: asker.id, body: 'Is this class right for a beginner?', hidden: false }),
    ]);
    expect((await inbox(teacher)).find((t) => t._id === sent.threadId)?.unread).toBe(false);

    const answered = await answer(teacher, sent.threadId, 'Yes, we start from holding the knife.');
    expect(answered.statusCode).toBe(201);
    expect((await inbox(asker)).find((t) => t._id === sent.threadId)).toMatchObject({
      unread: true,
      lastMessagePreview: 'Yes, we start from holding the knife.',
    });
    const asRead = (await thread(asker, sent.threadId)).json() as { messages: { body: string }[] };
    expect(asRead.messages.map((m) => m.body)).toEqual([
      'Is this class right for a beginner?',
      'Yes, we start from holding the knife.',
    ]);

    // A second question about the same class goes into the same thread.
    const again = await askOk(asker, teacherClass.id, 'And do I need my own knife?');
    expect(again.threadId).toBe(sent.threadId);
  });

  it('a student who bought the class asks too, in a thread of their own', async () => {
    await buy(ctx, student, [teacherClass.id]);
    const sent = await askOk(student, teacherClass.id, 'Where do we meet?');
    const own = await inbox(student);
    expect(own.map((t) => t._id)).toEqual([sent.threadId]);
    expect((await inbox(teacher)).map((t) => t._id)).toContain(sent.threadId);
  });

  it('never shows either side the other’s e-mail address or phone number', async () => {
    const sent = await askOk(asker, teacherClass.id, 'One more question');
    const bodies = [
      (await thread(asker, sent.threadId)).body,
      (await thread(teacher, sent.threadId)).body,
      JSON.stringify(await inbox(asker)),
      JSON.stringify(await inbox(teacher)),
    ];
    for (const body of bodies) {
      expect(body).not.toContain(teacher.email);
      expect(body).not.toContain(asker.email);
      expect(body).not.toContain('7700');
    }
  });

  it('mails the recipient a link back and a short one-line preview, never the whole text', async () => {
    const long = `Hello <b>teacher</b>\nline two ${'x'.repeat(400)} THE-END`;
    const sent = await askOk(asker, teacherClass.id, long);
    const mail = await latestMail(ctx, teacher.email, 'new-message');
    expect(mail.subject).toBe('New message from Ada Asker — SkillHive');
    expect(mail.link.toString()).toBe(`http://localhost:3000/dashboard/messages/${sent.threadId}`);
    expect(mail.text).toContain('Hello <b>teacher</b> line two xxx');
    expect(mail.text).not.toContain('THE-END');
    expect(mail.text).not.toContain(asker.email);
    expect(mail.html).not.toContain('<b>teacher</b>');
    expect(mail.html).toContain('&#60;b&#62;teacher&#60;/b&#62;');
  });
});

describe('notification preference', () => {
  it('sends no mail to a recipient who turned message mails off; the message still arrives', async () => {
    const quiet = await createCaller(ctx, 'teacher');
    const quietClass = await createClass(ctx, quiet);
    const off = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/me/notifications',
      headers: { ...quiet.headers, origin: 'http://localhost:3000' },
      payload: { teacherApplication: true, classReviews: true, newMessages: false, sessionReminders: true },
    });
    expect(off.statusCode).toBe(200);
    const sent = await askOk(asker, quietClass.id, 'Anyone there?');
    const mails = await ctx.db
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.to, quiet.email), eq(schema.mailOutbox.kind, 'new-message')));
    expect(mails).toEqual([]);
    expect((await inbox(quiet)).map((t) => t._id)).toContain(sent.threadId);
  });
});

describe('bad input', () => {
  it('refuses an empty, blank or too long message with a clear 400, and stores HTML as text', async () => {
    for (const body of ['', '   \n ', 'x'.repeat(5001), 'x'.repeat(10_000)]) {
      const res = await ask(asker, teacherClass.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_error');
      expect(Object.values(res.json().error.fields ?? {}).join(' ')).toMatch(/Write a message|at most 5000 characters/);
    }
    expect((await ask(asker, teacherClass.id, 'x'.repeat(5000))).statusCode).toBe(201);
    expect((await ask(asker, teacherClass.id, 42)).statusCode).toBe(400);
    expect((await ask(asker, teacherClass.id, 'bad\u0000byte')).statusCode).toBe(400);

    const script = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const sent = await askOk(asker, teacherClass.id, script);
    const read = (await thread(teacher, sent.threadId)).json() as { messages: { _id: string; body: string }[] };
    expect(read.messages.find((m) => m._id === sent.insertedId)?.body).toBe(script);
  });

  it('answers 404 for a class that is not public or does not exist, and 409 for one’s own class', async () => {
    const pending = await createClass(ctx, teacher, { status: 'pending' });
    expect((await ask(asker, pending.id, 'Hi')).statusCode).toBe(404);
    expect((await ask(asker, 'not-a-uuid', 'Hi')).statusCode).toBe(404);
    expect((await ask(asker, '00000000-0000-4000-8000-000000000000', 'Hi')).statusCode).toBe(404);
    const own = await ask(teacher, teacherClass.id, 'Hi');
    expect(own.statusCode).toBe(409);
    expect(own.json().error.message).toBe('You teach this class: your students write to you here');
  });
});

describe('permission matrix', () => {
  let threadId: string;
  beforeAll(async () => {
    const asking = await createCaller(ctx, 'student');
    threadId = (await askOk(asking, teacherClass.id, 'Matrix question')).threadId;
    callers.student = asking;
  });
  const callers: Partial<Record<Exclude<MatrixRole, 'anonymous'>, Caller>> = {};
  const callerOf = (role: Exclude<MatrixRole, 'anonymous'>): Caller =>
    callers[role] ?? { teacher, otherTeacher, admin, student }[role];

  itAnswersEachRole(
    [
      {
        name: 'GET /api/messages/threads/:id (its two people and admins; 404 for anyone else)',
        method: 'GET',
        url: () => `/api/messages/threads/${threadId}`,
        expected: { anonymous: 401, student: 200, teacher: 200, otherTeacher: 404, admin: 200 },
      },
      {
        name: 'POST /api/messages/threads/:id/messages (its two people only)',
        method: 'POST',
        url: () => `/api/messages/threads/${threadId}/messages`,
        body: () => ({ body: 'Matrix answer' }),
        expected: { anonymous: 401, student: 201, teacher: 201, otherTeacher: 404, admin: 404 },
      },
      {
        name: 'POST /api/classes/:id/messages (signed-in, not the class’s teacher)',
        method: 'POST',
        url: () => `/api/classes/${teacherClass.id}/messages`,
        body: () => ({ body: 'Matrix ask' }),
        expected: { anonymous: 401, student: 201, teacher: 409, otherTeacher: 201, admin: 201 },
      },
      {
        name: 'GET /api/messages/threads (signed-in, their own)',
        method: 'GET',
        url: () => '/api/messages/threads',
        expected: { anonymous: 401, student: 200, teacher: 200, otherTeacher: 200, admin: 200 },
      },
    ],
    { ctx: () => ctx, callerOf },
  );

  it('lists only one’s own threads', async () => {
    const other = await inbox(otherTeacher);
    expect(other.map((t) => t._id)).not.toContain(threadId);
    expect(other.every((t) => t.role === 'student')).toBe(true);
  });
});

describe('off-platform contact details', () => {
  it('delivers a message with a link, an e-mail address or a phone number and flags it to the report queue', async () => {
    const flagged = [
      ['Pay me at https://pay.example/abc instead', 'a link'],
      ['Write to me: tess@example.org', 'an e-mail address'],
      ['Call +44 7700 900 456 and pay cash', 'a phone number'],
    ] as const;
    for (const [body, sign] of flagged) {
      const sent = await askOk(asker, teacherClass.id, body);
      const [report] = await reportsOf(sent.insertedId);
      expect(report).toMatchObject({
        reporterId: null,
        ownerId: asker.id,
        reason: 'off-platform-payment',
        status: 'open',
        targetLabel: body,
      });
      expect(report?.details).toContain(sign);
    }
    const plain = await askOk(asker, teacherClass.id, 'Is 3 pm on the 12th fine? Chapter 4.2 of the book.');
    expect(await reportsOf(plain.insertedId)).toEqual([]);
  });
});

describe('reports of a message (decision 043)', () => {
  it('one of its people reports it; nobody else can; an admin hides it and its text is withheld from both sides', async () => {
    const sent = await askOk(asker, teacherClass.id, 'Something rude');
    const report = (user: Caller) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/reports',
        headers: user.headers,
        payload: { targetType: 'message', targetId: sent.insertedId, reason: 'abuse' },
      });
    expect((await report(otherTeacher)).statusCode).toBe(404);
    expect((await report(asker)).statusCode).toBe(409);
    const res = await report(teacher);
    expect(res.statusCode).toBe(201);
    const reportId = (res.json() as { insertedId: string }).insertedId;

    const queue = await ctx.app.inject({ url: '/api/admin/reports?status=open&limit=100', headers: admin.headers });
    expect((queue.json() as { _id: string; targetPath: string }[]).find((r) => r._id === reportId)).toMatchObject({
      targetType: 'message',
      targetPath: `/dashboard/messages/${sent.threadId}`,
      ownerId: asker.id,
    });
    const decided = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/reports/${reportId}/decision`,
      headers: admin.headers,
      payload: { action: 'hide' },
    });
    expect(decided.statusCode).toBe(200);
    for (const user of [asker, teacher, admin]) {
      const read = (await thread(user, sent.threadId)).json() as {
        messages: { _id: string; body: string; hidden: boolean }[];
      };
      expect(read.messages.find((m) => m._id === sent.insertedId)).toMatchObject({ body: '', hidden: true });
    }
    expect((await inbox(teacher)).find((t) => t._id === sent.threadId)?.lastMessagePreview).not.toBe('Something rude');
  });
});

describe('suspensions', () => {
  it('refuses a message to a suspended teacher (409) and from a suspended person (401)', async () => {
    const mutedTeacher = await createCaller(ctx, 'teacher');
    const mutedClass = await createClass(ctx, mutedTeacher);
    const sender = await createCaller(ctx, 'student');
    const sent = await askOk(sender, mutedClass.id, 'Before the suspension');
    const suspend = (id: string) =>
      ctx.app.inject({ method: 'POST', url: `/api/admin/users/${id}/suspension`, headers: admin.headers, payload: {} });
    expect((await suspend(mutedTeacher.id)).statusCode).toBe(200);
    const toSuspended = await answer(sender, sent.threadId, 'Are you there?');
    expect(toSuspended.statusCode).toBe(409);
    expect(toSuspended.json().error.message).toBe('This person cannot receive messages right now');

    const other = await askOk(sender, teacherClass.id, 'Hello');
    expect((await suspend(sender.id)).statusCode).toBe(200);
    expect((await answer(sender, other.threadId, 'Still here')).statusCode).toBe(401);
    expect((await answer(teacher, other.threadId, 'Hello back')).statusCode).toBe(409);
  });
});

describe('rate limit', () => {
  it('answers 429 past RATE_LIMIT_MESSAGES_PER_HOUR messages of one person', async () => {
    const chatty = await createCaller(ctx, 'student');
    for (let i = 0; i < 30; i += 1) expect((await ask(chatty, teacherClass.id, `Message ${i}`)).statusCode).toBe(201);
    const res = await ask(chatty, teacherClass.id, 'One too many');
    expect(res.statusCode).toBe(429);
    expect(res.json().error.message).toContain('You sent many messages just now');
  });
});
