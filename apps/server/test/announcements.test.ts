import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Announcement } from '@skillhive/shared/contracts/content';
import { schema } from '../src/db/client.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
import { FAST_SIGNUP_ENV, buy, createClass, enrolOk, type TestClass } from './commerce-fixtures.ts';

/**
 * Announcements (decision 050): a class's teacher writes once to every student who paid for the
 * class, or for one of its sections; each gets one mail, and reads it on the class's page.
 */
let ctx: TestContext;
let teacher: TestUser;
let otherTeacher: TestUser;
let admin: TestUser;
let paid: TestUser;
let late: TestUser;
let carted: TestUser;
let stranger: TestUser;
let cls: TestClass;
let empty: TestClass;
let firstSection: string;
let secondSection: string;

type Method = 'GET' | 'POST';
const call = (user: TestUser | null, method: Method, url: string, payload?: Record<string, unknown>) =>
  ctx.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });
const announce = (user: TestUser | null, payload: Record<string, unknown>, classId = cls.id) =>
  call(user, 'POST', `/api/classes/${classId}/announcements`, payload);
const list = (user: TestUser | null, classId = cls.id) => call(user, 'GET', `/api/classes/${classId}/announcements`);

async function announcementMailsTo(email: string): Promise<{ text: string; html: string }[]> {
  return ctx.db
    .select({ text: schema.mailOutbox.text, html: schema.mailOutbox.html })
    .from(schema.mailOutbox)
    .where(and(eq(schema.mailOutbox.to, email.toLowerCase()), eq(schema.mailOutbox.kind, 'announcement')));
}

beforeAll(async () => {
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV, RATE_LIMIT_MESSAGES_PER_HOUR: '8' });
  [teacher, otherTeacher, admin, paid, late, carted, stranger] = await Promise.all([
    createUser(ctx, 'teacher', { name: 'Tess Teacher' }),
    createUser(ctx, 'teacher'),
    createUser(ctx, 'admin'),
    createUser(ctx, 'student', { name: 'Paula Paid' }),
    createUser(ctx, 'student', { name: 'Larry Late' }),
    createUser(ctx, 'student'),
    createUser(ctx, 'student'),
  ]);
  cls = await createClass(ctx, teacher, { title: 'Live watercolour' });
  empty = await createClass(ctx, teacher, { title: 'Nobody yet' });
  // The first session makes the class's first section (decision 041), and the student who already
  // paid is in it; a second section takes the late student.
  const session = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions`, {
    title: 'Week 1',
    startsAt: '2099-04-06T18:00',
    timeZone: 'Europe/Berlin',
    durationMinutes: 60,
    meetingUrl: 'https://meet.example.test/room',
    location: '',
  });
  expect(session.statusCode, session.body).toBe(201);
  firstSection = (session.json() as { sectionId: string }).sectionId;
  await buy(ctx, paid, [cls.id]);
  const second = await call(teacher, 'POST', `/api/classes/${cls.id}/sections`, {
    timeZone: 'America/New_York',
    capacity: 10,
  });
  expect(second.statusCode, second.body).toBe(201);
  secondSection = (second.json() as { _id: string })._id;
  const enrolled = await call(late, 'POST', '/api/enrolled', { enrollId: cls.id, sectionId: secondSection });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  await buy(ctx, late, []);
  await enrolOk(ctx, carted, cls.id);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('announcements: permission matrix', () => {
  it.each([
    ['anonymous', () => null, 401],
    ['a student who paid', () => paid, 403],
    ['an admin', () => admin, 403],
    ['another teacher', () => otherTeacher, 403],
  ])('refuses %s a post', async (_who, caller, status) => {
    expect((await announce(caller(), { body: 'Hi' })).statusCode).toBe(status);
  });

  it.each([
    ['anonymous', () => null, 401],
    ['a student with the class only in the cart', () => carted, 409],
    ['a stranger', () => stranger, 409],
    ['another teacher', () => otherTeacher, 409],
  ])('refuses %s the list', async (_who, caller, status) => {
    expect((await list(caller())).statusCode).toBe(status);
  });
});

describe('announcements: who gets them', () => {
  it('goes to every paid student of the class once, by mail and on the class page; not to a cart', async () => {
    const res = await announce(teacher, { body: '  The link changed:\nuse room 2 from now on.  ' });
    expect(res.statusCode, res.body).toBe(201);
    const posted = res.json() as Announcement;
    expect(posted).toMatchObject({ classId: cls.id, sectionId: null, recipients: 2 });
    expect(posted.body).toBe('The link changed:\nuse room 2 from now on.');

    for (const student of [paid, late]) {
      const mails = await announcementMailsTo(student.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain('Tess Teacher sent an announcement to the students of "Live watercolour"');
      expect(mails[0]!.text).toContain('use room 2 from now on.');
      expect(mails[0]!.text).toContain(`/dashboard/myEnrollClass/${cls.id}`);
    }
    expect(await announcementMailsTo(carted.email)).toHaveLength(0);
    // In each student's notification centre too (decision 047), linking to their class page.
    for (const student of [paid, late]) {
      const centre = await call(student, 'GET', '/api/notifications');
      const items = (centre.json() as { items: { kind: string; title: string; body: string; link: string }[] }).items;
      expect(items.find((n) => n.kind === 'announcement')).toMatchObject({
        title: 'Tess Teacher about Live watercolour',
        body: 'The link changed: use room 2 from now on.',
        link: `/dashboard/myEnrollClass/${cls.id}`,
      });
    }
    const cartCentre = await call(carted, 'GET', '/api/notifications');
    expect((cartCentre.json() as { items: { kind: string }[] }).items.some((n) => n.kind === 'announcement')).toBe(
      false,
    );
    for (const reader of [paid, late, teacher, admin]) {
      const seen = await list(reader);
      expect(seen.statusCode).toBe(200);
      expect((seen.json() as Announcement[]).map((a) => a._id)).toContain(posted._id);
    }
  });

  it("goes to one section's students only, and only they (and the teacher) read it", async () => {
    const res = await announce(teacher, { body: 'New York section: we start at 7 pm.', sectionId: secondSection });
    expect(res.statusCode, res.body).toBe(201);
    const posted = res.json() as Announcement;
    expect(posted).toMatchObject({ sectionId: secondSection, recipients: 1 });
    expect(await announcementMailsTo(late.email)).toHaveLength(2);
    expect(await announcementMailsTo(paid.email)).toHaveLength(1);
    const ids = async (user: TestUser) => ((await list(user)).json() as Announcement[]).map((a) => a._id);
    expect(await ids(late)).toContain(posted._id);
    expect(await ids(paid)).not.toContain(posted._id);
    expect(await ids(teacher)).toContain(posted._id);
    // Newest first.
    expect((await ids(teacher))[0]).toBe(posted._id);
    expect(firstSection).not.toBe(secondSection);
  });

  it('stores HTML as text and mails it escaped', async () => {
    const html = '<script>alert(1)</script><b>bold</b>';
    const res = await announce(teacher, { body: html, sectionId: firstSection });
    expect(res.statusCode).toBe(201);
    expect((res.json() as Announcement).body).toBe(html);
    const mails = await announcementMailsTo(paid.email);
    const last = mails.find((m) => m.text.includes(html));
    expect(last?.html).toContain('&#60;script&#62;');
    expect(last?.html).not.toContain('<script>');
  });
});

describe('announcements: bad input', () => {
  it.each([
    ['empty', { body: '' }, 400, 'body', /Write the announcement/],
    ['blank', { body: ' \n ' }, 400, 'body', /Write the announcement/],
    ['10,000 characters', { body: 'x'.repeat(10_000) }, 400, 'body', /at most 5000 characters/],
    ['a number', { body: 7 }, 400, 'body', /Write the announcement/],
  ])('answers %s text with a 400 naming the field', async (_what, payload, status, field, message) => {
    const res = await announce(teacher, payload);
    expect(res.statusCode).toBe(status);
    expect(res.json().error.fields[field]).toMatch(message);
  });

  it('answers 404 for an unknown class or a section of another class, 409 while nobody paid', async () => {
    expect((await announce(teacher, { body: 'Hi' }, randomUUID())).statusCode).toBe(404);
    expect((await announce(teacher, { body: 'Hi' }, 'not-a-uuid')).statusCode).toBe(404);
    expect((await announce(teacher, { body: 'Hi', sectionId: randomUUID() })).statusCode).toBe(404);
    expect((await announce(teacher, { body: 'Hi', sectionId: 'nope' })).statusCode).toBe(404);
    const none = await announce(teacher, { body: 'Hi' }, empty.id);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toBe(
      'Nobody has paid for this yet: an announcement goes to the students who did',
    );
  });

  it('shares the hourly limit of messages (429 past it)', async () => {
    let status = 0;
    for (let i = 0; i < 10 && status !== 429; i++) status = (await announce(teacher, { body: `Note ${i}` })).statusCode;
    expect(status).toBe(429);
  });
});
