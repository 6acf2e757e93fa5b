import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassContent, ClassSession } from '@skillhive/shared/contracts/content';
import type { PublicSection, TeacherSection } from '@skillhive/shared/contracts/sections';
import { CONTENT_ITEMS_MAX, CONTENT_MESSAGES, WEEKLY_SESSIONS_MAX } from '@skillhive/shared/rules/content';
import { schema } from '../src/db/client.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  createClass,
  itAnswersEachRole,
  type MatrixRole,
  type TestClass,
} from './commerce-fixtures.ts';

/**
 * The teacher's editor before and after approval: sessions prepared as drafts while the class is
 * pending review, "Repeat weekly × N" in one request (all or none), "Publish all" for a class or a
 * section, and time zones stored under their current IANA names. Students and visitors never see
 * a draft; the public schedule shows only published sessions of accepted classes.
 */

const clock = new Date('2026-03-20T12:00:00Z');
let ctx: TestContext;
let teacher: TestUser;
let otherTeacher: TestUser;
let admin: TestUser;
let student: TestUser;

beforeAll(async () => {
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV }, { now: () => clock });
  [teacher, otherTeacher, admin, student] = await Promise.all([
    createUser(ctx, 'teacher'),
    createUser(ctx, 'teacher'),
    createUser(ctx, 'admin'),
    createUser(ctx, 'student'),
  ]);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

type Method = 'GET' | 'POST' | 'PATCH';
const call = (user: TestUser | null, method: Method, url: string, payload?: Record<string, unknown>) =>
  ctx.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });

const weeklyForm = (overrides: Record<string, unknown> = {}) => ({
  title: 'Live workshop',
  startsAt: '2026-03-23T18:00',
  timeZone: 'Europe/Berlin',
  durationMinutes: 90,
  meetingUrl: 'https://meet.example.test/workshop',
  location: '',
  weeks: 6,
  ...overrides,
});

async function sessionsOf(classId: string) {
  return ctx.db.select().from(schema.classSessions).where(eq(schema.classSessions.classId, classId));
}

describe('drafts from the moment a class is created', () => {
  let cls: TestClass;
  beforeAll(async () => {
    cls = await createClass(ctx, teacher, { title: 'Pending pottery', status: 'pending' });
  });

  it('prepares six weekly drafts in one request while pending; nobody else sees them until published and accepted', async () => {
    const res = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions/weekly`, weeklyForm());
    expect(res.statusCode, res.body).toBe(201);
    const sessions = res.json() as ClassSession[];
    // The same local hour each week, across Berlin's change to summer time on 29 March.
    expect(sessions.map((s) => s.localStart)).toEqual([
      '2026-03-23T18:00',
      '2026-03-30T18:00',
      '2026-04-06T18:00',
      '2026-04-13T18:00',
      '2026-04-20T18:00',
      '2026-04-27T18:00',
    ]);
    expect(sessions.slice(0, 2).map((s) => s.startsAt)).toEqual([
      '2026-03-23T17:00:00.000Z',
      '2026-03-30T16:00:00.000Z',
    ]);
    expect(sessions.map((s) => s.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(sessions.every((s) => !s.published && s.sectionId === sessions[0]!.sectionId)).toBe(true);
    const link = await call(teacher, 'POST', `/api/classes/${cls.id}/materials`, {
      title: 'Reading list',
      url: 'https://docs.example.test/reading',
    });
    expect(link.statusCode).toBe(201);

    // Pending: no public schedule, and nobody can have paid for it.
    expect((await call(null, 'GET', `/api/classes/${cls.id}/schedule`)).statusCode).toBe(404);
    expect((await call(student, 'GET', `/api/classes/${cls.id}/content`)).statusCode).toBe(409);

    const shown = await call(admin, 'GET', `/api/classes/${cls.id}`);
    const approve = await call(admin, 'PATCH', `/api/classes/class-requests/${cls.id}/approve`, {
      version: shown.json().version,
    });
    expect(approve.statusCode, approve.body).toBe(200);
    // Accepted, still drafts: the section is listed with no session times.
    const before = (await call(null, 'GET', `/api/classes/${cls.id}/schedule`)).json() as PublicSection[];
    expect(before.flatMap((section) => section.sessions)).toEqual([]);
    await buy(ctx, student, [cls.id]);
    const studentView = (await call(student, 'GET', `/api/classes/${cls.id}/content`)).json() as ClassContent;
    expect([studentView.sessions, studentView.materials]).toEqual([[], []]);

    const published = await call(teacher, 'POST', `/api/classes/${cls.id}/content/publish`, {});
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json()).toEqual({ sessions: 6, materials: 1 });
    const after = (await call(null, 'GET', `/api/classes/${cls.id}/schedule`)).json() as PublicSection[];
    expect(after.flatMap((section) => section.sessions.map((s) => s.startsAt))).toEqual(
      sessions.map((s) => s.startsAt),
    );
    const seen = (await call(student, 'GET', `/api/classes/${cls.id}/content`)).json() as ClassContent;
    expect([seen.sessions.length, seen.materials.length]).toEqual([6, 1]);
    // Nothing left to publish: publishing again changes nothing and says so.
    const again = await call(teacher, 'POST', `/api/classes/${cls.id}/content/publish`, {});
    expect(again.json()).toEqual({ sessions: 0, materials: 0 });
    const rows = await sessionsOf(cls.id);
    expect(rows.every((row) => row.publishedAt?.getTime() === clock.getTime())).toBe(true);
  });

  it('publishes one section’s drafts only when a section is named; another class’s section is a 404', async () => {
    const other = await createClass(ctx, teacher, { status: 'pending' });
    const first = (
      (
        await call(teacher, 'POST', `/api/classes/${other.id}/sessions/weekly`, weeklyForm({ weeks: 2 }))
      ).json() as ClassSession[]
    )[0]!;
    const second = await call(teacher, 'POST', `/api/classes/${other.id}/sections`, {
      timeZone: 'Asia/Tokyo',
      capacity: 12,
    });
    expect(second.statusCode, second.body).toBe(201);
    const tokyo = second.json() as TeacherSection;
    const added = await call(
      teacher,
      'POST',
      `/api/classes/${other.id}/sessions/weekly`,
      weeklyForm({ weeks: 3, timeZone: 'Asia/Tokyo', sectionId: tokyo._id }),
    );
    expect(added.statusCode, added.body).toBe(201);
    expect((added.json() as ClassSession[]).every((s) => s.sectionId === tokyo._id)).toBe(true);
    await call(teacher, 'POST', `/api/classes/${other.id}/materials`, {
      title: 'Notes',
      url: 'https://x.example.test',
    });

    const one = await call(teacher, 'POST', `/api/classes/${other.id}/content/publish`, { sectionId: tokyo._id });
    expect(one.json()).toEqual({ sessions: 3, materials: 0 });
    const rows = await sessionsOf(other.id);
    expect(rows.filter((r) => r.publishedAt).map((r) => r.sectionId)).toEqual([tokyo._id, tokyo._id, tokyo._id]);
    expect(rows.filter((r) => !r.publishedAt).map((r) => r.sectionId)).toEqual([first.sectionId, first.sectionId]);

    const foreign = await call(teacher, 'POST', `/api/classes/${other.id}/content/publish`, {
      sectionId: (await sectionOfAnotherClass()).id,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toMatch(/Section/);
    expect((await call(teacher, 'POST', `/api/classes/${crypto.randomUUID()}/content/publish`, {})).statusCode).toBe(
      404,
    );
  });

  async function sectionOfAnotherClass() {
    const another = await createClass(ctx, teacher);
    const res = await call(teacher, 'POST', `/api/classes/${another.id}/sections`, { timeZone: 'UTC', capacity: 5 });
    return { id: (res.json() as TeacherSection)._id };
  }
});

describe('repeat weekly: bad input and limits', () => {
  let cls: TestClass;
  beforeAll(async () => {
    cls = await createClass(ctx, teacher, { status: 'pending' });
  });

  it.each([
    ['0', 0],
    ['53', WEEKLY_SESSIONS_MAX + 1],
    ['a fraction', 2.5],
    ['text', 'six'],
  ])('refuses %s weekly sessions with a 400 naming the field, storing nothing', async (_name, weeks) => {
    const res = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions/weekly`, weeklyForm({ weeks }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'validation_error',
      fields: { weeks: CONTENT_MESSAGES.weeksRange },
    });
    expect(await sessionsOf(cls.id)).toEqual([]);
  });

  it('makes 52 weekly sessions, and one with no `weeks` given', async () => {
    const year = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions/weekly`, weeklyForm({ weeks: 52 }));
    expect(year.statusCode).toBe(201);
    expect((year.json() as ClassSession[]).at(-1)!.localStart).toBe('2027-03-15T18:00');
    const { weeks: _omitted, ...single } = weeklyForm();
    const one = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions/weekly`, single);
    expect([one.statusCode, (one.json() as ClassSession[]).length]).toEqual([201, 1]);
    expect(await sessionsOf(cls.id)).toHaveLength(53);
  });

  it('refuses a week whose local time the clocks skip, by its date, storing none of the weeks', async () => {
    const other = await createClass(ctx, teacher);
    const res = await call(
      teacher,
      'POST',
      `/api/classes/${other.id}/sessions/weekly`,
      weeklyForm({ startsAt: '2026-03-22T02:30', weeks: 3 }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ startsAt: CONTENT_MESSAGES.weekSkipped('2026-03-29') });
    expect(await sessionsOf(other.id)).toEqual([]);
  });

  it('adds all or none when the class would hold more than the maximum', async () => {
    const other = await createClass(ctx, teacher);
    const full = Math.floor(CONTENT_ITEMS_MAX / WEEKLY_SESSIONS_MAX);
    for (let i = 0; i < full; i++) {
      const res = await call(teacher, 'POST', `/api/classes/${other.id}/sessions/weekly`, weeklyForm({ weeks: 52 }));
      expect(res.statusCode).toBe(201);
    }
    const over = await call(teacher, 'POST', `/api/classes/${other.id}/sessions/weekly`, weeklyForm({ weeks: 52 }));
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toBe(CONTENT_MESSAGES.tooMany);
    expect(await sessionsOf(other.id)).toHaveLength(full * 52);
  }, 60_000);
});

describe('time zones are stored under their current IANA names', () => {
  it('accepts old and new names and stores the current one, for sessions and sections; unknown zones are 400', async () => {
    const cls = await createClass(ctx, teacher, { status: 'pending' });
    const kolkata = await call(
      teacher,
      'POST',
      `/api/classes/${cls.id}/sessions/weekly`,
      weeklyForm({ timeZone: 'Asia/Calcutta', weeks: 1, startsAt: '2026-07-01T12:00' }),
    );
    expect(kolkata.statusCode, kolkata.body).toBe(201);
    const [session] = kolkata.json() as ClassSession[];
    expect([session!.timeZone, session!.startsAt]).toEqual(['Asia/Kolkata', '2026-07-01T06:30:00.000Z']);
    const single = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions`, {
      ...weeklyForm({ timeZone: 'Asia/Kolkata', startsAt: '2026-07-08T12:00' }),
      weeks: undefined,
    });
    expect((single.json() as ClassSession).timeZone).toBe('Asia/Kolkata');
    const kyiv = await call(teacher, 'POST', `/api/classes/${cls.id}/sections`, {
      timeZone: 'Europe/Kiev',
      capacity: 8,
    });
    expect((kyiv.json() as TeacherSection).timeZone).toBe('Europe/Kyiv');
    const sections = (await call(teacher, 'GET', `/api/classes/${cls.id}/sections`)).json() as TeacherSection[];
    expect(sections.map((s) => s.timeZone)).toEqual(['Asia/Kolkata', 'Europe/Kyiv']);

    const unknown = await call(
      teacher,
      'POST',
      `/api/classes/${cls.id}/sessions/weekly`,
      weeklyForm({ timeZone: 'Mars/Olympus' }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toMatchObject({ timeZone: CONTENT_MESSAGES.timeZoneInvalid });
  });
});

describe('repeat weekly and publish all (permission matrix)', () => {
  let cls: TestClass;
  beforeAll(async () => {
    cls = await createClass(ctx, teacher, { status: 'pending' });
  });
  const callers: Record<Exclude<MatrixRole, 'anonymous'>, () => TestUser> = {
    student: () => student,
    teacher: () => teacher,
    otherTeacher: () => otherTeacher,
    admin: () => admin,
  };
  itAnswersEachRole(
    [
      {
        name: 'POST /api/classes/:id/sessions/weekly',
        method: 'POST',
        url: () => `/api/classes/${cls.id}/sessions/weekly`,
        body: () => weeklyForm({ weeks: 2 }),
        expected: { anonymous: 401, student: 403, teacher: 201, otherTeacher: 403, admin: 403 },
      },
      {
        name: 'POST /api/classes/:id/content/publish',
        method: 'POST',
        url: () => `/api/classes/${cls.id}/content/publish`,
        body: () => ({}),
        expected: { anonymous: 401, student: 403, teacher: 200, otherTeacher: 403, admin: 403 },
      },
    ],
    { ctx: () => ctx, callerOf: (role) => callers[role]() },
  );

  it('the refused callers changed nothing', async () => {
    const rows = await sessionsOf(cls.id);
    // The teacher's two drafts, published by the teacher's own call.
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.publishedAt !== null)).toBe(true);
  });
});
