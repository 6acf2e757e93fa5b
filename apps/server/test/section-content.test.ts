import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassContent, ClassProgress } from '@skillhive/shared/contracts/content';
import { CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import { schema } from '../src/db/client.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
import { FAST_SIGNUP_ENV, buy, createClass, itAnswersEachRole, type TestClass } from './commerce-fixtures.ts';

/**
 * A live class in two sections (decision 041): each student reads, downloads into a calendar and
 * is reminded of the sessions of the section they paid for, not of the other one; the teacher and
 * admins see both. The app's clock is this suite's, moved to send reminders.
 */
// Near the real time: sign-up's verification links are checked against it.
let clock = new Date();
/** A whole hour `days` and `hours` from the suite's start, as the session form's local UTC time. */
const DAY = 24 * 60 * 60_000;
const base = Math.ceil(clock.getTime() / (60 * 60_000)) * 60 * 60_000 + 30 * DAY;
const MORNING = new Date(base + 9 * 60 * 60_000);
const EVENING = new Date(base + 22 * 60 * 60_000);
const local = (at: Date) => at.toISOString().slice(0, 16);
let ctx: TestContext;
let teacher: TestUser;
let admin: TestUser;
let early: TestUser;
let late: TestUser;
/** Paid for nothing; and a teacher of no class here. */
let stranger: TestUser;
let otherTeacher: TestUser;
let cls: TestClass;

type Method = 'GET' | 'POST';
const call = (user: TestUser | null, method: Method, url: string, payload?: Record<string, unknown>) =>
  ctx.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });

async function publishedSession(sectionId: string | undefined, title: string, startsAt: string): Promise<string> {
  const res = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions`, {
    ...(sectionId ? { sectionId } : {}),
    title,
    startsAt,
    timeZone: 'UTC',
    durationMinutes: 60,
    meetingUrl: 'https://meet.example.test/room',
    location: '',
  });
  expect(res.statusCode, res.body).toBe(201);
  const { _id: id, sectionId: section } = res.json() as { _id: string; sectionId: string };
  const published = await call(teacher, 'POST', `/api/class-sessions/${id}/publish`, { published: true });
  expect(published.statusCode, published.body).toBe(200);
  return section;
}

beforeAll(async () => {
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV, SESSION_REMINDER_INTERVAL_SECONDS: '0' }, { now: () => clock });
  [teacher, admin, early, late, stranger, otherTeacher] = await Promise.all([
    createUser(ctx, 'teacher'),
    createUser(ctx, 'admin'),
    createUser(ctx, 'student'),
    createUser(ctx, 'student'),
    createUser(ctx, 'student'),
    createUser(ctx, 'teacher'),
  ]);
  cls = await createClass(ctx, teacher, { title: 'Live pottery' });
  // The first session makes the first section; the early student's line goes into it.
  await buy(ctx, early, [cls.id]);
  const first = await publishedSession(undefined, 'Morning wheel', local(MORNING));
  const second = await call(teacher, 'POST', `/api/classes/${cls.id}/sections`, {
    timeZone: 'America/New_York',
    capacity: 10,
  });
  expect(second.statusCode, second.body).toBe(201);
  const secondId = (second.json() as { _id: string })._id;
  expect(secondId).not.toBe(first);
  await publishedSession(secondId, 'Evening wheel', local(EVENING));
  const enrolled = await call(late, 'POST', '/api/enrolled', { enrollId: cls.id, sectionId: secondId });
  expect(enrolled.statusCode, enrolled.body).toBe(201);
  await buy(ctx, late, []);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

const titlesOf = async (user: TestUser) => {
  const res = await call(user, 'GET', `/api/classes/${cls.id}/content`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ClassContent).sessions.map((s) => s.title).sort();
};

describe('a class in sections', () => {
  it("lists each student's own section's sessions, and every session to the teacher and admins", async () => {
    expect(await titlesOf(early)).toEqual(['Morning wheel']);
    expect(await titlesOf(late)).toEqual(['Evening wheel']);
    expect(await titlesOf(teacher)).toEqual(['Evening wheel', 'Morning wheel']);
    expect(await titlesOf(admin)).toEqual(['Evening wheel', 'Morning wheel']);
  });

  it("puts only the student's own section's sessions in their calendar file", async () => {
    const calendar = async (user: TestUser) => (await call(user, 'GET', `/api/classes/${cls.id}/calendar.ics`)).body;
    expect(await calendar(early)).toContain('Morning wheel');
    expect(await calendar(early)).not.toContain('Evening wheel');
    expect(await calendar(late)).toContain('Evening wheel');
    expect(await calendar(late)).not.toContain('Morning wheel');
  });

  it("releases a student's share per session of the section they bought (decision 040), not of the class's others", async () => {
    const tranchesOf = async (student: TestUser) => {
      const rows = await ctx.db
        .select({ sessionId: schema.earningTranches.sessionId })
        .from(schema.earningTranches)
        .innerJoin(schema.earningLines, eq(schema.earningLines.id, schema.earningTranches.lineId))
        .innerJoin(schema.enrollments, eq(schema.enrollments.id, schema.earningLines.enrollmentId))
        .where(and(eq(schema.enrollments.studentId, student.id), eq(schema.enrollments.classId, cls.id)));
      return rows.map((r) => r.sessionId);
    };
    const evening = await ctx.db
      .select({ id: schema.classSessions.id })
      .from(schema.classSessions)
      .where(and(eq(schema.classSessions.classId, cls.id), eq(schema.classSessions.title, 'Evening wheel')));
    // Bought after both sections had a session: one part, at the end of its own section's session.
    expect(await tranchesOf(late)).toEqual([evening[0]!.id]);
  });

  it("reminds each student of their own section's sessions only", async () => {
    const remindersTo = async () => {
      const rows = await ctx.db
        .select({ to: schema.mailOutbox.to, subject: schema.mailOutbox.subject })
        .from(schema.mailOutbox)
        .where(
          and(eq(schema.mailOutbox.kind, 'session-reminder'), inArray(schema.mailOutbox.to, [early.email, late.email])),
        );
      return rows.map((r) => `${r.to} ${r.subject.includes('Morning') ? 'morning' : 'evening'}`).sort();
    };
    clock = new Date(MORNING.getTime() - 30 * 60_000);
    await ctx.sessionReminders.runOnce();
    expect(await remindersTo()).toEqual([`${early.email} morning`]);
    clock = new Date(EVENING.getTime() - 30 * 60_000);
    await ctx.sessionReminders.runOnce();
    expect(await remindersTo()).toEqual([`${early.email} morning`, `${late.email} evening`].sort());
  });

  it("counts each student's progress over their own section's sessions, and refuses a mark on another section's (decision 053)", async () => {
    clock = new Date(EVENING.getTime() + 2 * 60 * 60_000);
    const sessionId = async (title: string) =>
      (
        await ctx.db
          .select({ id: schema.classSessions.id })
          .from(schema.classSessions)
          .where(and(eq(schema.classSessions.classId, cls.id), eq(schema.classSessions.title, title)))
      )[0]!.id;
    const mark = (user: TestUser, title: string, done: boolean) =>
      sessionId(title).then((id) =>
        ctx.app.inject({
          method: 'PUT',
          url: `/api/class-sessions/${id}/attendance`,
          headers: user.headers,
          payload: { done },
        }),
      );
    const refused = await mark(early, 'Evening wheel', true);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.message).toBe(CONTENT_MESSAGES.otherSection);
    expect((await mark(early, 'Morning wheel', true)).statusCode).toBe(200);

    // The teacher marks a student: only in the student's own section, only a paid student.
    const teacherMark = async (user: TestUser | null, title: string, studentId: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/class-sessions/${await sessionId(title)}/attendance/${studentId}`,
        headers: user?.headers ?? {},
        payload: { done: true },
      });
    const otherSection = await teacherMark(teacher, 'Morning wheel', late.id);
    expect(otherSection.statusCode, otherSection.body).toBe(409);
    expect(otherSection.json().error.message).toBe(CONTENT_MESSAGES.studentOtherSection);
    const unpaid = await teacherMark(teacher, 'Evening wheel', stranger.id);
    expect(unpaid.statusCode, unpaid.body).toBe(409);
    expect(unpaid.json().error.message).toBe(CONTENT_MESSAGES.studentNotPaid);
    expect((await teacherMark(null, 'Evening wheel', late.id)).statusCode).toBe(401);
    expect((await teacherMark(early, 'Evening wheel', late.id)).statusCode).toBe(403);
    expect((await teacherMark(otherTeacher, 'Evening wheel', late.id)).statusCode).toBe(403);
    const marked = await teacherMark(teacher, 'Evening wheel', late.id);
    expect(marked.statusCode, marked.body).toBe(200);

    const progress = await call(teacher, 'GET', `/api/classes/${cls.id}/progress`);
    expect(progress.statusCode, progress.body).toBe(200);
    const rows = (progress.json() as ClassProgress).students;
    const byId = new Map(rows.map((row) => [row.studentId, row]));
    // One session in each student's section, each attended: 1 of 1 (not 1 of 2, every section's).
    expect(byId.get(early.id)).toMatchObject({ attendedSessions: 1, completion: 1 });
    expect(byId.get(late.id)).toMatchObject({ attendedSessions: 1, completion: 1 });
  });
});

describe("reminders in the student's own zone (decision 053)", () => {
  itAnswersEachRole(
    [
      {
        name: 'PUT /api/users/me/time-zone',
        method: 'PUT',
        url: () => '/api/users/me/time-zone',
        body: () => ({ timeZone: 'Europe/Paris' }),
        expected: { anonymous: 401, student: 200, teacher: 200, otherTeacher: 200, admin: 200 },
      },
    ],
    { ctx: () => ctx, callerOf: (role) => ({ student: early, teacher, otherTeacher: teacher, admin })[role] },
  );

  it('refuses a zone that is not an IANA name, and stores the current name of an old one', async () => {
    const put = (timeZone: string) =>
      ctx.app.inject({ method: 'PUT', url: '/api/users/me/time-zone', headers: late.headers, payload: { timeZone } });
    expect((await put('Mars/Olympus')).statusCode).toBe(400);
    expect((await put('')).statusCode).toBe(400);
    const old = await put('Asia/Calcutta');
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json()).toEqual({ timeZone: 'Asia/Kolkata' });
  });

  it("formats the reminder in the student's zone and names it, else in the session's", async () => {
    const put = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/me/time-zone',
      headers: late.headers,
      payload: { timeZone: 'Asia/Tokyo' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const [row] = await ctx.db
      .select({ timeZone: schema.users.timeZone })
      .from(schema.users)
      .where(eq(schema.users.id, late.id));
    expect(row?.timeZone).toBe('Asia/Tokyo');
    // A new session of the late student's section, reminded of half an hour before it.
    const starts = new Date(EVENING.getTime() + 7 * DAY);
    const secondId = (
      await ctx.db
        .select({ sectionId: schema.enrollments.sectionId })
        .from(schema.enrollments)
        .where(and(eq(schema.enrollments.studentId, late.id), eq(schema.enrollments.classId, cls.id)))
    )[0]!.sectionId!;
    clock = new Date(starts.getTime() - 40 * DAY);
    await publishedSession(secondId, 'Tokyo wheel', local(starts));
    clock = new Date(starts.getTime() - 30 * 60_000);
    await ctx.sessionReminders.runOnce();
    const mails = await ctx.db
      .select({ text: schema.mailOutbox.text })
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.kind, 'session-reminder'), eq(schema.mailOutbox.to, late.email)));
    const mail = mails.find((m) => m.text.includes('Tokyo wheel'));
    const tokyo = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Tokyo',
      hour: '2-digit',
      minute: '2-digit',
    }).format(starts);
    expect(mail?.text).toContain(tokyo);
    expect(mail?.text).toContain('(Asia/Tokyo time)');
    // The calendar file carries UTC instants (no TZID), which every calendar shows on its own clock.
    const ics = (await call(late, 'GET', `/api/classes/${cls.id}/calendar.ics`)).body;
    const utc = starts
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    expect(ics).toContain(`DTSTART:${utc}`);
    expect(ics).not.toContain('TZID');
    // The early student told us no zone: their earlier reminder named the session's (UTC).
    const [earlyMail] = await ctx.db
      .select({ text: schema.mailOutbox.text })
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.kind, 'session-reminder'), eq(schema.mailOutbox.to, early.email)));
    expect(earlyMail?.text).toContain('(UTC time)');
  });
});
