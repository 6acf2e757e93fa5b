import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassItem } from '@skillhive/shared/contracts/classes';
import type { ClassSession } from '@skillhive/shared/contracts/content';
import type { TeacherSection } from '@skillhive/shared/contracts/sections';
import { SCHEDULE_FILTER_MESSAGES } from '@skillhive/shared/rules/schedule-filter';
import { schema } from '../src/db/client.ts';
import { scheduleFitsAtMost } from '../src/modules/classes/catalogue.repository.ts';
import { refreshPassedSchedules, scheduleMatchOf } from '../src/modules/sections/sections.public.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
import { FAST_SIGNUP_ENV, createClass, type TestClass } from './commerce-fixtures.ts';

/**
 * The catalogue's dates and schedule filters (decision 053): each card's next start, and "fits my
 * week" on the visitor's clock — Asia/Kolkata's half hour, a day that is another day in another
 * zone, a daylight-saving change inside a section's sessions — and the schedule summary the
 * triggers keep on every session write. The app runs on the real clock (the summary's triggers
 * use the database's), with every session in 2027.
 */

let ctx: TestContext;
let teacher: TestUser;
let kolkata: TestClass;
let berlin: TestClass;
let selfPaced: TestClass;
let newYork: TestClass;
let utcEvening: TestClass;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (user: TestUser | null, method: Method, url: string, payload?: Record<string, unknown>) =>
  ctx.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });

/** A section of the class in `timeZone` with `weeks` published weekly sessions from `startsAt` (local). */
async function weeklySection(
  cls: TestClass,
  timeZone: string,
  startsAt: string,
  weeks: number,
  owner: TestUser = teacher,
): Promise<string> {
  const section = await call(owner, 'POST', `/api/classes/${cls.id}/sections`, { timeZone, capacity: 20 });
  expect(section.statusCode, section.body).toBe(201);
  const sectionId = (section.json() as TeacherSection)._id;
  const sessions = await call(owner, 'POST', `/api/classes/${cls.id}/sessions/weekly`, {
    title: 'Live',
    startsAt,
    timeZone,
    durationMinutes: 60,
    meetingUrl: 'https://meet.example.test/room',
    location: '',
    weeks,
    sectionId,
  });
  expect(sessions.statusCode, sessions.body).toBe(201);
  const published = await call(owner, 'POST', `/api/classes/${cls.id}/content/publish`, { sectionId });
  expect(published.statusCode, published.body).toBe(200);
  return sectionId;
}

async function catalogue(query: string): Promise<ClassItem[]> {
  const res = await call(null, 'GET', `/api/classes?limit=50&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ClassItem[];
}

async function titles(query: string): Promise<string[]> {
  return (await catalogue(query)).map((item) => item.title).sort();
}

async function summaryOf(sectionId: string) {
  const [row] = await ctx.db
    .select({
      next: schema.sections.nextStartsAt,
      last: schema.sections.lastStartsAt,
      slots: schema.sections.startSlots,
    })
    .from(schema.sections)
    .where(eq(schema.sections.id, sectionId));
  return row!;
}

/** The UTC quarter hours of the week a summary lists, as "isodow hh:mm". */
function slotNames(slots: number[]): string[] {
  const names: string[] = [];
  for (const q of slots) {
    const day = Math.floor(q / 96) + 1;
    const minutes = (q % 96) * 15;
    names.push(`${day} ${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`);
  }
  return names;
}

beforeAll(async () => {
  ctx = await createTestApp({ ...FAST_SIGNUP_ENV });
  teacher = await createUser(ctx, 'teacher');
  kolkata = await createClass(ctx, teacher, { title: 'Kolkata mornings' });
  berlin = await createClass(ctx, teacher, { title: 'Berlin evenings' });
  selfPaced = await createClass(ctx, teacher, { title: 'Self-paced sketching' });
  newYork = await createClass(ctx, teacher, { title: 'New York evenings' });
  utcEvening = await createClass(ctx, teacher, { title: 'UTC late' });
  // Mondays 09:00 in Kolkata (+5:30) = Mondays 03:30 UTC = Sundays 19:30 in Los Angeles.
  await weeklySection(kolkata, 'Asia/Kolkata', '2027-01-04T09:00', 4);
  // Wednesdays 19:00 in Berlin (winter, +1) = 18:00 UTC.
  await weeklySection(berlin, 'Europe/Berlin', '2027-01-06T19:00', 4);
  // Tuesdays 18:00 in New York across its change to summer time on 14 March 2027: 23:00 UTC, then 22:00.
  await weeklySection(newYork, 'America/New_York', '2027-03-02T18:00', 4);
  // Tuesdays 23:00 UTC: 18:00 in New York before 14 March, 19:00 after.
  await weeklySection(utcEvening, 'UTC', '2027-03-02T23:00', 4);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('the next start on each card', () => {
  it('is the earliest published start of a running section, as an instant; a self-paced class has none', async () => {
    const items = await catalogue('');
    const byTitle = new Map(items.map((item) => [item.title, item]));
    expect(byTitle.get(kolkata.title)?.nextSessionAt).toBe('2027-01-04T03:30:00.000Z');
    expect(byTitle.get(berlin.title)?.nextSessionAt).toBe('2027-01-06T18:00:00.000Z');
    expect(byTitle.get(newYork.title)?.nextSessionAt).toBe('2027-03-02T23:00:00.000Z');
    expect(byTitle.get(selfPaced.title)?.nextSessionAt).toBeNull();
  });
});

describe('fits my week, on the visitor clock', () => {
  it('matches a half-hour zone exactly: Kolkata mornings are 9–10 there and 3–4 in UTC', async () => {
    expect(await titles('tz=Asia/Kolkata&days=mon&times=morning')).toEqual([kolkata.title]);
    expect(await titles('tz=Asia/Kolkata&days=mon&fromHour=9&toHour=10')).toEqual([kolkata.title]);
    expect(await titles('tz=Asia/Kolkata&days=mon&fromHour=8&toHour=9')).toEqual([]);
    expect(await titles('tz=Asia/Kolkata&days=tue,wed,thu,fri,sat,sun')).not.toContain(kolkata.title);
    expect(await titles('tz=UTC&days=mon&times=morning')).toEqual([]);
    expect(await titles('tz=UTC&days=mon&fromHour=3&toHour=4')).toEqual([kolkata.title]);
    expect(await titles('days=mon&fromHour=4&toHour=5')).toEqual([]);
  });

  it('turns days over with the zone: a Monday morning in Kolkata is a Sunday evening in Los Angeles', async () => {
    expect(await titles('tz=America/Los_Angeles&days=sun&times=evening')).toEqual([kolkata.title]);
    expect(await titles('tz=America/Los_Angeles&days=mon')).toEqual([]);
  });

  it('matches every session across a daylight-saving change, on the visitor clock', async () => {
    // New York's 18:00 stays 18:00 there; in UTC it is 23:00, then 22:00.
    expect(await titles('tz=America/New_York&days=tue&fromHour=18&toHour=19')).toEqual([newYork.title]);
    expect(await titles('tz=UTC&days=tue&fromHour=22&toHour=24')).toEqual([newYork.title, utcEvening.title]);
    expect(await titles('tz=UTC&days=tue&fromHour=23&toHour=24')).toEqual([utcEvening.title]);
    // Its first start slot (22:00 UTC, the summary's lowest) is wanted here, its 23:00 ones are not.
    expect(await titles('tz=UTC&days=tue&fromHour=22&toHour=23')).toEqual([]);
    // UTC's 23:00 is 18:00 in New York until 14 March, then 19:00: it no longer fits 18–19 there.
    expect(await titles('tz=America/New_York&days=tue&fromHour=18&toHour=20')).toEqual([
      newYork.title,
      utcEvening.title,
    ]);
  });

  it('leaves self-paced classes out only when a schedule filter is set, and combines with search and category', async () => {
    expect(await titles('')).toContain(selfPaced.title);
    expect(await titles('tz=UTC&startsAfter=2026-01-01')).not.toContain(selfPaced.title);
    expect(await titles('tz=Asia/Kolkata&days=mon&q=kolkata&category=data-science')).toEqual([kolkata.title]);
    expect(await titles('tz=Asia/Kolkata&days=mon&q=berlin')).toEqual([]);
    // Tuesday evenings in New York and UTC are Wednesday mornings in Kolkata.
    const total = await call(null, 'GET', '/api/classes?tz=Asia/Kolkata&days=mon,wed');
    expect(total.headers['x-total-count']).toBe('4');
    expect(await titles('tz=Asia/Kolkata&days=mon,wed')).toEqual(
      [berlin.title, kolkata.title, newYork.title, utcEvening.title].sort(),
    );
  });

  it('starts after a date: midnight of that date on the visitor clock', async () => {
    expect(await titles('tz=UTC&startsAfter=2027-01-04')).toContain(kolkata.title);
    expect(await titles('tz=UTC&startsAfter=2027-01-05')).not.toContain(kolkata.title);
    // 03:30 UTC on the 4th is still the 3rd in Los Angeles.
    expect(await titles('tz=America/Los_Angeles&startsAfter=2027-01-04')).not.toContain(kolkata.title);
    expect(await titles('tz=Asia/Kolkata&startsAfter=2027-01-04')).toContain(kolkata.title);
  });
});

describe('the fitting classes, counted up to the cap', () => {
  it('reads each class once, however many of its sections fit, and stops at the cap', async () => {
    const twice = await createClass(ctx, teacher, { title: 'Thursday dawn, two sections' });
    const once = await createClass(ctx, teacher, { title: 'Thursday dawn, one section' });
    await weeklySection(twice, 'UTC', '2027-01-07T05:00', 2);
    await weeklySection(twice, 'UTC', '2027-02-04T05:00', 2);
    await weeklySection(once, 'UTC', '2027-01-14T05:15', 2);
    const res = await call(null, 'GET', '/api/classes?tz=UTC&days=thu&fromHour=5&toHour=6');
    expect(res.headers['x-total-count']).toBe('2');
    expect(await titles('tz=UTC&days=thu&fromHour=5&toHour=6')).toEqual([once.title, twice.title].sort());

    const now = new Date();
    const match = scheduleMatchOf({ tz: 'UTC', days: ['thu'], fromHour: 5, toHour: 6 }, now)!;
    const filter = {
      status: 'accepted' as const,
      schedule: { match, now },
      sort: 'newest' as const,
      limit: 20,
      offset: 0,
    };
    const both = [once.id, twice.id].sort();
    expect((await scheduleFitsAtMost(ctx.db, filter, 3)).sort()).toEqual(both);
    expect((await scheduleFitsAtMost(ctx.db, filter, 2)).sort()).toEqual(both);
    const capped = await scheduleFitsAtMost(ctx.db, filter, 1);
    expect(capped).toHaveLength(1);
    expect(both).toContain(capped[0]);
  });
});

/** The class's status as each of its sections carries it (the migration's triggers keep it). */
async function sectionCopiesOf(classId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ status: schema.sections.classStatus })
    .from(schema.sections)
    .where(eq(schema.sections.classId, classId));
  return rows.map((row) => row.status);
}

describe("the class's status on its sections", () => {
  it('follows the class: a suspended teacher’s class leaves the filter and comes back with its teacher', async () => {
    const admin = await createUser(ctx, 'admin');
    const other = await createUser(ctx, 'teacher');
    const cls = await createClass(ctx, other, { title: 'Saturday dawn' });
    await weeklySection(cls, 'UTC', '2027-01-09T04:00', 2, other);
    const query = 'tz=UTC&days=sat&fromHour=4&toHour=5';
    expect(await titles(query)).toEqual([cls.title]);
    const suspension = `/api/admin/users/${other.id}/suspension`;
    const suspended = await call(admin, 'POST', suspension, {});
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(await titles(query)).toEqual([]);
    expect(await sectionCopiesOf(cls.id)).toEqual(['hidden']);
    const reinstated = await call(admin, 'DELETE', suspension);
    expect(reinstated.statusCode, reinstated.body).toBe(200);
    expect(await titles(query)).toEqual([cls.title]);
    expect(await sectionCopiesOf(cls.id)).toEqual(['accepted']);
  });
});

describe('bad filters', () => {
  it.each([
    ['tz=Mars/Olympus', SCHEDULE_FILTER_MESSAGES.timeZone],
    ['startsAfter=2027-02-30', SCHEDULE_FILTER_MESSAGES.date],
    ['startsAfter=tomorrow', SCHEDULE_FILTER_MESSAGES.date],
    ['days=funday', SCHEDULE_FILTER_MESSAGES.days],
    ['days=,', SCHEDULE_FILTER_MESSAGES.days],
    ['times=night', SCHEDULE_FILTER_MESSAGES.times],
    ['fromHour=25', SCHEDULE_FILTER_MESSAGES.hour],
    ['fromHour=9.5', SCHEDULE_FILTER_MESSAGES.hour],
    ['fromHour=10&toHour=9', SCHEDULE_FILTER_MESSAGES.hourOrder],
    ['times=morning&fromHour=9', SCHEDULE_FILTER_MESSAGES.timesAndHours],
  ])('%s is a 400', async (query, message) => {
    const res = await call(null, 'GET', `/api/classes?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain(message);
  });
});

describe('the schedule summary', () => {
  it('follows every write of a session and a section', async () => {
    const cls = await createClass(ctx, teacher, { title: 'Summary watch' });
    const created = await call(teacher, 'POST', `/api/classes/${cls.id}/sections`, { timeZone: 'UTC', capacity: 5 });
    const sectionId = (created.json() as TeacherSection)._id;
    const draft = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions`, {
      title: 'One',
      startsAt: '2027-02-01T10:00',
      timeZone: 'UTC',
      durationMinutes: 60,
      meetingUrl: 'https://meet.example.test/room',
      location: '',
      sectionId,
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const session = draft.json() as ClassSession;
    // A draft is nobody's schedule yet.
    expect(await summaryOf(sectionId)).toEqual({ next: null, last: null, slots: [] });

    const publish = (published: boolean) =>
      call(teacher, 'POST', `/api/class-sessions/${session._id}/publish`, { published });
    expect((await publish(true)).statusCode).toBe(200);
    let summary = await summaryOf(sectionId);
    expect(summary.next?.toISOString()).toBe('2027-02-01T10:00:00.000Z');
    expect(slotNames(summary.slots)).toEqual(['1 10:00']);
    // Back to draft and published again.
    expect((await publish(false)).statusCode).toBe(200);
    expect((await summaryOf(sectionId)).next).toBeNull();
    expect((await publish(true)).statusCode).toBe(200);

    const edit = await call(teacher, 'PATCH', `/api/class-sessions/${session._id}`, {
      title: 'One',
      startsAt: '2027-02-03T14:45',
      timeZone: 'UTC',
      durationMinutes: 60,
      meetingUrl: 'https://meet.example.test/room',
      location: '',
      sectionId,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    summary = await summaryOf(sectionId);
    expect(summary.next?.toISOString()).toBe('2027-02-03T14:45:00.000Z');
    expect(slotNames(summary.slots)).toEqual(['3 14:45']);

    // Moved to another section: the first is empty again, the second has it.
    const other = await call(teacher, 'POST', `/api/classes/${cls.id}/sections`, { timeZone: 'UTC', capacity: 5 });
    const otherId = (other.json() as TeacherSection)._id;
    const moved = await call(teacher, 'PATCH', `/api/class-sessions/${session._id}`, {
      title: 'One',
      startsAt: '2027-02-03T14:45',
      timeZone: 'UTC',
      durationMinutes: 60,
      meetingUrl: 'https://meet.example.test/room',
      location: '',
      sectionId: otherId,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await summaryOf(sectionId)).next).toBeNull();
    expect(slotNames((await summaryOf(otherId)).slots)).toEqual(['3 14:45']);
    expect((await catalogue('q=summary')).map((item) => item.nextSessionAt)).toEqual(['2027-02-03T14:45:00.000Z']);

    expect(await titles('tz=UTC&days=wed&q=summary')).toEqual([cls.title]);
    // A cancelled section (decision 052) is no one's date and fits no filter. The status is set
    // here directly, so that setting it back shows the summary alone decides.
    const setStatus = (status: 'active' | 'cancelled') =>
      ctx.db
        .update(schema.sections)
        .set(
          status === 'cancelled'
            ? { status, cancelledAt: new Date(), cancelReason: 'teacher' }
            : { status, cancelledAt: null, cancelReason: null },
        )
        .where(eq(schema.sections.id, otherId));
    await setStatus('cancelled');
    expect((await catalogue('q=summary')).map((item) => item.nextSessionAt)).toEqual([null]);
    expect(await titles('tz=UTC&days=wed&q=summary')).toEqual([]);
    await setStatus('active');
    expect(await titles('tz=UTC&days=wed&q=summary')).toEqual([cls.title]);

    expect((await call(teacher, 'DELETE', `/api/class-sessions/${session._id}`)).statusCode).toBe(200);
    expect(await summaryOf(otherId)).toEqual({ next: null, last: null, slots: [] });
  });

  it('drops the sessions that have started when the job refreshes it', async () => {
    const cls = await createClass(ctx, teacher, { title: 'Passing weeks' });
    const sectionId = await weeklySection(cls, 'UTC', '2027-04-05T08:00', 2);
    const before = await summaryOf(sectionId);
    expect(before.next?.toISOString()).toBe('2027-04-05T08:00:00.000Z');
    expect(await refreshPassedSchedules(ctx.db, new Date('2027-04-06T00:00:00Z'))).toBeGreaterThanOrEqual(1);
    const after = await summaryOf(sectionId);
    expect(after.next?.toISOString()).toBe('2027-04-12T08:00:00.000Z');
    expect(after.last?.toISOString()).toBe('2027-04-12T08:00:00.000Z');
  });
});
