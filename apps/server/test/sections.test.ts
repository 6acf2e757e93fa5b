import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassSession } from '@skillhive/shared/contracts/content';
import type { TeacherSection } from '@skillhive/shared/contracts/sections';
import { SECTION_MESSAGES } from '@skillhive/shared/rules/sections';
import { schema } from '../src/db/client.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  createClass,
  enrolOk,
  itAnswersEachRole,
  type MatrixRole,
  type TestClass,
} from './commerce-fixtures.ts';

/**
 * Sections of a live class (decision 041): the teacher's editor API, its refusals, sessions under
 * a section, and enrollment in a chosen section. The app's clock is this suite's.
 */

const clock = new Date('2026-03-20T12:00:00Z');
let ctx: TestContext;
let teacher: TestUser;
let otherTeacher: TestUser;
let admin: TestUser;
let student: TestUser;
let buyer: TestUser;
let cls: TestClass;
let selfPaced: TestClass;

beforeAll(async () => {
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV }, { now: () => clock });
  [teacher, otherTeacher, admin, student, buyer] = await Promise.all([
    createUser(ctx, 'teacher'),
    createUser(ctx, 'teacher'),
    createUser(ctx, 'admin'),
    createUser(ctx, 'student'),
    createUser(ctx, 'student'),
  ]);
  cls = await createClass(ctx, teacher, { title: 'Live watercolour' });
  selfPaced = await createClass(ctx, teacher, { title: 'Self-paced watercolour' });
  // Bought while the class had no sessions: the class's first section takes this student in.
  await buy(ctx, student, [cls.id]);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

type Method = 'GET' | 'POST' | 'PATCH';
const call = (user: TestUser | null, method: Method, url: string, payload?: Record<string, unknown>) =>
  ctx.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });

const sectionForm = (overrides: Record<string, unknown> = {}) => ({
  timeZone: 'America/New_York',
  capacity: 10,
  minimum: 3,
  enrollOpensAt: '2026-03-01T09:00',
  enrollClosesAt: '2026-04-01T09:00',
  ...overrides,
});

const sessionForm = (overrides: Record<string, unknown> = {}) => ({
  title: 'Week 1',
  startsAt: '2026-04-06T18:00',
  timeZone: 'Europe/Berlin',
  durationMinutes: 60,
  meetingUrl: 'https://meet.example.test/room',
  location: '',
  ...overrides,
});

async function listSections(classId = cls.id): Promise<TeacherSection[]> {
  const res = await call(teacher, 'GET', `/api/classes/${classId}/sections`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TeacherSection[];
}

describe('sections of a live class', () => {
  let first: TeacherSection;
  let second: TeacherSection;

  it("a class's first session makes its first section, with the students it had", async () => {
    expect(await listSections()).toEqual([]);
    const res = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions`, sessionForm());
    expect(res.statusCode, res.body).toBe(201);
    const session = res.json() as ClassSession;
    first = (await listSections())[0]!;
    expect(first).toMatchObject({
      _id: session.sectionId,
      timeZone: 'Europe/Berlin',
      capacity: null,
      minimum: null,
      status: 'active',
      enrolled: 1,
      sessionCount: 1,
      firstSessionAt: '2026-04-06T16:00:00.000Z',
    });
    const [line] = await ctx.db
      .select({ sectionId: schema.enrollments.sectionId })
      .from(schema.enrollments)
      .where(eq(schema.enrollments.studentId, student.id));
    expect(line?.sectionId).toBe(first._id);
  });

  it('a teacher adds a section with its zone, seats and window; the class needs no new review', async () => {
    const res = await call(teacher, 'POST', `/api/classes/${cls.id}/sections`, sectionForm());
    expect(res.statusCode, res.body).toBe(201);
    second = res.json() as TeacherSection;
    expect(second).toMatchObject({
      timeZone: 'America/New_York',
      capacity: 10,
      minimum: 3,
      // 09:00 in New York on 1 March is EST (−5), on 1 April EDT (−4).
      enrollOpensAt: '2026-03-01T14:00:00.000Z',
      enrollClosesAt: '2026-04-01T13:00:00.000Z',
      localEnrollOpensAt: '2026-03-01T09:00',
      localEnrollClosesAt: '2026-04-01T09:00',
      enrolled: 0,
      sessionCount: 0,
      firstSessionAt: null,
    });
    const [row] = await ctx.db
      .select({ status: schema.classes.status })
      .from(schema.classes)
      .where(eq(schema.classes.id, cls.id));
    expect(row?.status).toBe('accepted');
    expect((await listSections()).map((s) => s._id)).toEqual([first._id, second._id]);
  });

  it('a session goes into the section named, and never starts before its enrollment deadline', async () => {
    const early = await call(
      teacher,
      'POST',
      `/api/classes/${cls.id}/sessions`,
      sessionForm({ sectionId: second._id, startsAt: '2026-03-30T18:00', timeZone: 'America/New_York' }),
    );
    expect(early.statusCode).toBe(400);
    expect(early.json().error.fields.startsAt).toBe(SECTION_MESSAGES.closesAfterFirstSession);

    const res = await call(
      teacher,
      'POST',
      `/api/classes/${cls.id}/sessions`,
      sessionForm({ sectionId: second._id, startsAt: '2026-04-07T18:00', timeZone: 'America/New_York' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as ClassSession).sectionId).toBe(second._id);
    const listed = (await listSections()).find((s) => s._id === second._id);
    expect(listed).toMatchObject({ sessionCount: 1, firstSessionAt: '2026-04-07T22:00:00.000Z' });
  });

  it("a session cannot go into another class's section", async () => {
    const other = await createClass(ctx, teacher);
    const res = await call(
      teacher,
      'POST',
      `/api/classes/${other.id}/sessions`,
      sessionForm({ sectionId: second._id }),
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Section not found');
  });

  it('bad input gets a clear 4xx with its message', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ minimum: 11 }, 400, 'minimum', SECTION_MESSAGES.minimumAboveMaximum],
      [{ capacity: 0 }, 400, 'capacity', SECTION_MESSAGES.capacityRange],
      [{ capacity: 'lots' }, 400, 'capacity', SECTION_MESSAGES.capacityRange],
      [{ capacity: 10_001, minimum: '' }, 400, 'capacity', SECTION_MESSAGES.capacityRange],
      [{ minimum: 2.5 }, 400, 'minimum', SECTION_MESSAGES.minimumRange],
      [{ enrollClosesAt: '2026-02-01T09:00' }, 400, 'enrollClosesAt', SECTION_MESSAGES.windowOrder],
      [{ enrollOpensAt: 'soon' }, 400, 'enrollOpensAt', SECTION_MESSAGES.opensInvalid],
      [{ timeZone: 'Mars/Olympus' }, 400, 'timeZone', 'Choose a time zone from the list'],
      // 02:30 on 8 March does not exist in New York (the clocks skip from 02:00 to 03:00).
      [{ enrollOpensAt: '2026-03-08T02:30' }, 400, 'enrollOpensAt', SECTION_MESSAGES.timeSkipped],
    ];
    for (const [overrides, status, field, message] of cases) {
      const res = await call(teacher, 'POST', `/api/classes/${cls.id}/sections`, sectionForm(overrides));
      expect({ overrides, status: res.statusCode }).toEqual({ overrides, status });
      expect(res.json().error.fields[field]).toBe(message);
    }
  });

  it('the maximum cannot drop below the students enrolled, nor the deadline pass the first session', async () => {
    await call(teacher, 'PATCH', `/api/sections/${first._id}`, sectionForm({ timeZone: 'Europe/Berlin', minimum: '' }));
    await buy(ctx, buyer, [cls.id]);
    const below = await call(
      teacher,
      'PATCH',
      `/api/sections/${first._id}`,
      sectionForm({ timeZone: 'Europe/Berlin', capacity: 1, minimum: '' }),
    );
    expect(below.statusCode).toBe(409);
    expect(below.json().error.message).toBe(SECTION_MESSAGES.capacityBelowEnrolled(2));
    expect(below.json().error.message).toBe('Maximum seats cannot be below the 2 students already enrolled');

    const late = await call(
      teacher,
      'PATCH',
      `/api/sections/${first._id}`,
      sectionForm({ timeZone: 'Europe/Berlin', minimum: '', enrollClosesAt: '2026-04-06T18:30' }),
    );
    expect(late.statusCode).toBe(400);
    expect(late.json().error.fields.enrollClosesAt).toBe(SECTION_MESSAGES.closesAfterFirstSession);

    const ok = await call(
      teacher,
      'PATCH',
      `/api/sections/${first._id}`,
      sectionForm({ timeZone: 'Europe/Berlin', capacity: 2, minimum: 2, enrollClosesAt: '2026-04-06T17:00' }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      capacity: 2,
      minimum: 2,
      enrolled: 2,
      enrollClosesAt: '2026-04-06T15:00:00.000Z',
    });

    expect((await call(teacher, 'PATCH', `/api/sections/not-a-uuid`, sectionForm())).statusCode).toBe(404);
    expect((await call(teacher, 'PATCH', `/api/sections/${crypto.randomUUID()}`, sectionForm())).statusCode).toBe(404);
  });
});

describe('enrolling in a section', () => {
  it('a student enrolls in the section they choose', async () => {
    const [, second] = await listSections();
    const someone = await createUser(ctx, 'student');
    const res = await call(someone, 'POST', '/api/enrolled', { enrollId: cls.id, sectionId: second!._id });
    expect(res.statusCode, res.body).toBe(201);
    const [line] = await ctx.db
      .select({ sectionId: schema.enrollments.sectionId })
      .from(schema.enrollments)
      .where(eq(schema.enrollments.id, res.json().insertedId));
    expect(line?.sectionId).toBe(second!._id);
  });

  it('a section of another class is a 404, one whose window has not opened a 409', async () => {
    const [, second] = await listSections();
    const someone = await createUser(ctx, 'student');
    const other = await createClass(ctx, teacher);
    const wrong = await call(someone, 'POST', '/api/enrolled', { enrollId: other.id, sectionId: second!._id });
    expect(wrong.statusCode).toBe(404);
    const later = await call(teacher, 'POST', `/api/classes/${cls.id}/sections`, {
      ...sectionForm(),
      enrollOpensAt: '2026-05-01T09:00',
      enrollClosesAt: '2026-06-01T09:00',
    });
    expect(later.statusCode, later.body).toBe(201);
    const early = await call(someone, 'POST', '/api/enrolled', { enrollId: cls.id, sectionId: later.json()._id });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(SECTION_MESSAGES.notOpen);
  });

  it('a self-paced class keeps working without sections', async () => {
    const someone = await createUser(ctx, 'student');
    const id = await enrolOk(ctx, someone, selfPaced.id);
    const [line] = await ctx.db
      .select({ sectionId: schema.enrollments.sectionId })
      .from(schema.enrollments)
      .where(eq(schema.enrollments.id, id));
    expect(line?.sectionId).toBeNull();
    const named = await call(someone, 'POST', '/api/enrolled', {
      enrollId: (await createClass(ctx, teacher)).id,
      sectionId: crypto.randomUUID(),
    });
    expect(named.statusCode).toBe(404);
  });
});

describe('permission matrix of the section endpoints', () => {
  let sectionId = '';
  beforeAll(async () => {
    sectionId = (await listSections())[1]!._id;
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
        name: 'GET /api/classes/:id/sections',
        method: 'GET',
        url: () => `/api/classes/${cls.id}/sections`,
        expected: { anonymous: 401, student: 403, teacher: 200, otherTeacher: 403, admin: 403 },
      },
      {
        name: 'POST /api/classes/:id/sections',
        method: 'POST',
        url: () => `/api/classes/${cls.id}/sections`,
        body: () => sectionForm(),
        expected: { anonymous: 401, student: 403, teacher: 201, otherTeacher: 403, admin: 403 },
      },
    ],
    { ctx: () => ctx, callerOf: (role) => callers[role]() },
  );
  it('PATCH /api/sections/:id: anonymous → 401, student → 403, otherTeacher → 403, admin → 403, teacher → 200', async () => {
    const expected: [TestUser | null, number][] = [
      [null, 401],
      [student, 403],
      [otherTeacher, 403],
      [admin, 403],
      [teacher, 200],
    ];
    for (const [user, status] of expected) {
      const res = await call(user, 'PATCH', `/api/sections/${sectionId}`, sectionForm());
      expect(res.statusCode).toBe(status);
    }
  });
});
