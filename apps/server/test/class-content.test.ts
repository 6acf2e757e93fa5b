import ICAL from 'ical.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassContent, ClassMaterial, ClassProgress, ClassSession } from '@skillhive/shared/contracts/content';
import { CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import { REVIEW_MESSAGES, TEXT_MESSAGES } from '@skillhive/shared/rules/messages';
import { schema } from '../src/db/client.ts';
import { createTestApp, createUser, latestMail, type TestContext, type TestUser } from './harness.ts';
import { FAST_SIGNUP_ENV, buy, createClass, enrolOk, type TestClass } from './commerce-fixtures.ts';
import { multipartBody } from './upload-fixtures.ts';

/**
 * Class content (decision 021): sessions, materials, progress, reminders and verified reviews. The
 * app's clock is this suite's: sessions are placed around it and it is moved to open a meeting
 * link or to send reminders. Callers use session cookies, which do not depend on that clock.
 */

let clock = new Date('2026-03-20T12:00:00Z');
let ctx: TestContext;
let teacher: TestUser;
let otherTeacher: TestUser;
let admin: TestUser;
let paid: TestUser;
let pending: TestUser;
let refunded: TestUser;
let stranger: TestUser;
let cls: TestClass;

const MATERIAL_MAX_MB = '0.05';

/** A small, well-formed PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
/** The start of a Linux program (ELF) and of a Windows one (PE, "MZ"). */
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120, 0)]);
const PE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58, 0), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64, 0)]);

beforeAll(async () => {
  ctx = await createTestApp(
    { ...FAST_SIGNUP_ENV, MATERIAL_MAX_MB, SESSION_REMINDER_INTERVAL_SECONDS: '0' },
    { now: () => clock },
  );
  [teacher, otherTeacher, admin, paid, pending, refunded, stranger] = await Promise.all([
    createUser(ctx, 'teacher', { name: 'Tess Teacher' }),
    createUser(ctx, 'teacher'),
    createUser(ctx, 'admin'),
    createUser(ctx, 'student', { name: 'Paula Paid' }),
    createUser(ctx, 'student'),
    createUser(ctx, 'student'),
    createUser(ctx, 'student'),
  ]);
  cls = await createClass(ctx, teacher, { title: 'Live data science' });
  await buy(ctx, paid, [cls.id]);
  await enrolOk(ctx, pending, cls.id);
  const { paymentId } = await buy(ctx, refunded, [cls.id]);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/admin/payments/${paymentId}/refunds`,
    headers: admin.headers,
    payload: { reason: 'Changed plans' },
  });
  expect(res.statusCode, res.body).toBe(200);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

type Caller = TestUser | null;
const call = (user: Caller, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: user?.headers ?? {},
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });

const sessionForm = (overrides: Record<string, unknown> = {}) => ({
  title: 'Kick-off',
  startsAt: '2026-03-23T18:00',
  timeZone: 'Europe/Berlin',
  durationMinutes: 90,
  meetingUrl: 'https://meet.example.test/room-1',
  location: '',
  ...overrides,
});

async function addSession(overrides: Record<string, unknown> = {}, publish = true, classId = cls.id) {
  const res = await call(teacher, 'POST', `/api/classes/${classId}/sessions`, sessionForm(overrides));
  expect(res.statusCode, res.body).toBe(201);
  const session = res.json() as ClassSession;
  if (publish) {
    const published = await call(teacher, 'POST', `/api/class-sessions/${session._id}/publish`, { published: true });
    expect(published.statusCode).toBe(200);
    return published.json() as ClassSession;
  }
  return session;
}

function upload(user: Caller, bytes: Buffer, options: { filename?: string; type?: string; title?: string } = {}) {
  const file = multipartBody(bytes, { field: 'file', filename: options.filename ?? 'notes.pdf', type: options.type });
  // The title field first, then the file part (multipartBody writes one part; prepend the field).
  const boundary = /boundary=(.+)$/.exec(file.headers['content-type'])![1]!;
  const field = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${options.title ?? 'Week 1 notes'}\r\n`,
  );
  return ctx.app.inject({
    method: 'POST',
    url: `/api/classes/${cls.id}/materials/file`,
    headers: { ...file.headers, ...(user?.headers ?? {}) },
    payload: Buffer.concat([field, file.payload]),
  });
}

async function addPdf(publish = true): Promise<ClassMaterial> {
  const res = await upload(teacher, PDF);
  expect(res.statusCode, res.body).toBe(201);
  const material = res.json() as ClassMaterial;
  if (!publish) return material;
  const published = await call(teacher, 'POST', `/api/materials/${material._id}/publish`, { published: true });
  expect(published.statusCode).toBe(200);
  return published.json() as ClassMaterial;
}

describe('who may open a class’s content (permission matrix)', () => {
  let session: ClassSession;
  let draft: ClassSession;
  let pdf: ClassMaterial;
  beforeAll(async () => {
    session = await addSession({ title: 'Matrix session' });
    draft = await addSession({ title: 'Draft session' }, false);
    pdf = await addPdf();
  });

  const readers = () =>
    [
      ['anonymous', null, 401],
      ['a pending (unpaid) student', pending, 409],
      ['a refunded student', refunded, 409],
      ['a signed-in stranger', stranger, 409],
      ['another teacher', otherTeacher, 409],
      ['the paid student', paid, 200],
      ['the teacher', teacher, 200],
      ['an admin', admin, 200],
    ] as const;

  it.each([
    ['GET content', () => `/api/classes/${cls.id}/content`],
    ['GET calendar.ics', () => `/api/classes/${cls.id}/calendar.ics`],
    ['GET material file', () => `/api/materials/${pdf._id}/file`],
  ])('%s', async (_name, url) => {
    for (const [who, user, status] of readers()) {
      const res = await call(user, 'GET', url());
      expect(res.statusCode, `${who}: ${res.body.slice(0, 200)}`).toBe(status);
      if (status === 409) {
        const message = user === refunded ? CONTENT_MESSAGES.refunded : CONTENT_MESSAGES.notPaid;
        expect(res.json(), who).toMatchObject({ error: { code: 'conflict', message } });
      } else if (status !== 200) expect(res.json()).toMatchObject({ error: { code: expect.any(String) } });
    }
  });

  it('the progress figures: the teacher and admins only', async () => {
    const expected = [
      [null, 401],
      [pending, 403],
      [paid, 403],
      [refunded, 403],
      [otherTeacher, 403],
      [teacher, 200],
      [admin, 200],
    ] as const;
    for (const [user, status] of expected) {
      expect((await call(user, 'GET', `/api/classes/${cls.id}/progress`)).statusCode).toBe(status);
    }
  });

  it('changes to the content: its teacher only', async () => {
    const writes: [string, 'POST' | 'PUT' | 'PATCH' | 'DELETE', () => string, unknown][] = [
      ['create session', 'POST', () => `/api/classes/${cls.id}/sessions`, sessionForm()],
      ['edit session', 'PATCH', () => `/api/class-sessions/${draft._id}`, sessionForm({ title: 'Hacked' })],
      ['publish session', 'POST', () => `/api/class-sessions/${draft._id}/publish`, { published: true }],
      ['reorder sessions', 'PUT', () => `/api/classes/${cls.id}/sessions/order`, { ids: [] }],
      ['delete session', 'DELETE', () => `/api/class-sessions/${draft._id}`, undefined],
      ['add link', 'POST', () => `/api/classes/${cls.id}/materials`, { title: 'x', url: 'https://example.test/x' }],
      ['edit material', 'PATCH', () => `/api/materials/${pdf._id}`, { title: 'Hacked' }],
      ['publish material', 'POST', () => `/api/materials/${pdf._id}/publish`, { published: false }],
      ['reorder materials', 'PUT', () => `/api/classes/${cls.id}/materials/order`, { ids: [] }],
      ['delete material', 'DELETE', () => `/api/materials/${pdf._id}`, undefined],
    ];
    const callers = [
      [null, 401],
      [paid, 403],
      [pending, 403],
      [refunded, 403],
      [otherTeacher, 403],
      [admin, 403],
    ] as const;
    for (const [name, method, url, body] of writes) {
      for (const [user, status] of callers) {
        const res = await call(user, method, url(), body);
        expect(res.statusCode, `${name} by ${user?.email ?? 'anonymous'}`).toBe(status);
      }
    }
    expect((await upload(null, PDF)).statusCode).toBe(401);
    expect((await upload(paid, PDF)).statusCode).toBe(403);
    expect((await upload(otherTeacher, PDF)).statusCode).toBe(403);
    expect((await upload(admin, PDF)).statusCode).toBe(403);
    // Nothing changed.
    const [row] = await ctx.db.select().from(schema.classSessions).where(eq(schema.classSessions.id, draft._id));
    expect(row).toMatchObject({ title: 'Draft session', publishedAt: null });
  });

  it('progress marks: a paid student, for their own mark only', async () => {
    clock = new Date('2026-03-23T17:30:00Z');
    for (const [user, status] of [
      [null, 401],
      [pending, 409],
      [refunded, 409],
      [otherTeacher, 409],
      [teacher, 409],
      [admin, 409],
    ] as const) {
      const attendance = await call(user, 'PUT', `/api/class-sessions/${session._id}/attendance`, { done: true });
      expect(attendance.statusCode).toBe(status);
      const completion = await call(user, 'PUT', `/api/materials/${pdf._id}/completion`, { done: true });
      expect(completion.statusCode).toBe(status);
      if (status === 409) {
        for (const res of [attendance, completion]) {
          expect(res.json()).toMatchObject({ error: { code: 'conflict', message: CONTENT_MESSAGES.notPaid } });
        }
      }
    }
    expect(await ctx.db.select().from(schema.sessionAttendance)).toEqual([]);
    clock = new Date('2026-03-20T12:00:00Z');
  });

  it('students see published items only; the teacher and admins see drafts', async () => {
    const mine = (await call(paid, 'GET', `/api/classes/${cls.id}/content`)).json() as ClassContent;
    expect(mine.viewerRole).toBe('student');
    expect(mine.sessions.map((s) => s.title)).toContain('Matrix session');
    expect(mine.sessions.map((s) => s.title)).not.toContain('Draft session');
    expect(mine.sessions.every((s) => s.published && s.attended === false)).toBe(true);
    const theirs = (await call(teacher, 'GET', `/api/classes/${cls.id}/content`)).json() as ClassContent;
    expect(theirs.viewerRole).toBe('teacher');
    expect(theirs.sessions.map((s) => s.title)).toContain('Draft session');
    expect(theirs.sessions.every((s) => s.attended === null)).toBe(true);
    const admins = (await call(admin, 'GET', `/api/classes/${cls.id}/content`)).json() as ClassContent;
    expect(admins.viewerRole).toBe('admin');
    expect(admins.sessions.map((s) => s.title)).toContain('Draft session');
    // A draft file is not served to a student.
    const draftPdf = await addPdf(false);
    expect((await call(paid, 'GET', `/api/materials/${draftPdf._id}/file`)).statusCode).toBe(404);
    expect((await call(teacher, 'GET', `/api/materials/${draftPdf._id}/file`)).statusCode).toBe(200);
  });

  it('unknown and malformed ids are 404s, bad bodies 400s', async () => {
    expect((await call(teacher, 'GET', '/api/classes/not-a-uuid/content')).statusCode).toBe(404);
    expect((await call(teacher, 'GET', `/api/classes/${crypto.randomUUID()}/content`)).statusCode).toBe(404);
    expect((await call(paid, 'GET', `/api/materials/${crypto.randomUUID()}/file`)).statusCode).toBe(404);
    expect((await call(teacher, 'PATCH', `/api/class-sessions/nope`, sessionForm())).statusCode).toBe(404);
    const bad = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions`, {
      title: '',
      startsAt: 'tomorrow',
      timeZone: 'Mars/Olympus',
      durationMinutes: 0,
      meetingUrl: 'javascript:alert(1)',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation_error');
    const messages = JSON.stringify(bad.json());
    for (const message of [
      CONTENT_MESSAGES.titleRequired,
      CONTENT_MESSAGES.startInvalid,
      CONTENT_MESSAGES.timeZoneInvalid,
      CONTENT_MESSAGES.durationRange,
      CONTENT_MESSAGES.meetingUrlInvalid,
    ]) {
      expect(messages).toContain(message);
    }
    const http = await call(teacher, 'POST', `/api/classes/${cls.id}/materials`, {
      title: 'Plain http',
      url: 'http://example.test/x',
    });
    expect(http.statusCode).toBe(400);
    expect(JSON.stringify(http.json())).toContain(CONTENT_MESSAGES.linkUrlInvalid);
    const noPlace = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions`, sessionForm({ meetingUrl: '' }));
    expect(noPlace.statusCode).toBe(400);
    expect(JSON.stringify(noPlace.json())).toContain(CONTENT_MESSAGES.placeRequired);
  });
});

describe('a refund takes access away at once', () => {
  it('the paid student loses the content, the file and the calendar when refunded', async () => {
    const student = await createUser(ctx, 'student');
    const other = await createClass(ctx, teacher);
    const { paymentId } = await buy(ctx, student, [other.id]);
    expect((await call(student, 'GET', `/api/classes/${other.id}/content`)).statusCode).toBe(200);
    const res = await call(admin, 'POST', `/api/admin/payments/${paymentId}/refunds`, { reason: 'Asked for it' });
    expect(res.statusCode).toBe(200);
    const after = await call(student, 'GET', `/api/classes/${other.id}/content`);
    expect(after.statusCode).toBe(409);
    // The refusal says why: refunded, enroll again (not "only students who paid").
    expect(after.json().error.message).toBe(CONTENT_MESSAGES.refunded);
    expect((await call(student, 'GET', `/api/classes/${other.id}/calendar.ics`)).statusCode).toBe(409);
  });

  it('"not paid" answers the same status and code for the content as for a review (DESIGN §3)', async () => {
    const student = await createUser(ctx, 'student');
    const other = await createClass(ctx, teacher);
    await enrolOk(ctx, student, other.id);
    const content = await call(student, 'GET', `/api/classes/${other.id}/content`);
    const review = await call(student, 'POST', '/api/reviews', { classId: other.id, rating: 5 });
    expect(review.json().error.message).toBe(REVIEW_MESSAGES.notPaid);
    expect(content.json().error.message).toBe(CONTENT_MESSAGES.notPaid);
    expect([content.statusCode, content.json().error.code]).toEqual([409, 'conflict']);
    expect([review.statusCode, review.json().error.code]).toEqual([content.statusCode, content.json().error.code]);
  });
});

describe('time zones', () => {
  it('a weekly Berlin session keeps its local hour across the March change and reads right in New York', async () => {
    const other = await createClass(ctx, teacher);
    const weeks = ['2026-03-23T18:00', '2026-03-30T18:00', '2026-10-19T18:00', '2026-10-26T18:00'];
    for (const startsAt of weeks) await addSession({ startsAt, title: `Week ${startsAt}` }, true, other.id);
    const content = (await call(teacher, 'GET', `/api/classes/${other.id}/content`)).json() as ClassContent;
    // Central European Time is UTC+1, summer time UTC+2 (from 29 March to 25 October 2026).
    expect(content.sessions.map((s) => s.startsAt)).toEqual([
      '2026-03-23T17:00:00.000Z',
      '2026-03-30T16:00:00.000Z',
      '2026-10-19T16:00:00.000Z',
      '2026-10-26T17:00:00.000Z',
    ]);
    expect(content.sessions.map((s) => s.localStart)).toEqual(weeks);
    // New York changed on 8 March and changes back on 1 November: the gap is 5, 6, 6 and 5 hours.
    const inNewYork = content.sessions.map((s) =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: 'America/New_York',
        hour: 'numeric',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(s.startsAt)),
    );
    expect(inNewYork).toEqual(['13:00', '12:00', '12:00', '13:00']);
  });

  it('a New York session shows at the right Berlin time, and the hour the clocks skip is refused', async () => {
    const other = await createClass(ctx, teacher);
    const ny = await addSession({ startsAt: '2026-03-10T09:00', timeZone: 'America/New_York' }, true, other.id);
    expect(ny.startsAt).toBe('2026-03-10T13:00:00.000Z');
    const inBerlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(ny.startsAt));
    expect(inBerlin).toBe('14:00');
    const skipped = await call(
      teacher,
      'POST',
      `/api/classes/${other.id}/sessions`,
      sessionForm({ startsAt: '2026-03-29T02:30' }),
    );
    expect(skipped.statusCode).toBe(400);
    expect(skipped.json().error.message).toBe(CONTENT_MESSAGES.startSkipped);
    // The hour shown twice in October is the first of the two (summer time).
    const repeated = await addSession({ startsAt: '2026-10-25T02:30' }, false, other.id);
    expect(repeated.startsAt).toBe('2026-10-25T00:30:00.000Z');
  });

  it('the .ics calendar parses back with the published sessions at their instants', async () => {
    const other = await createClass(ctx, teacher, { title: 'Calendar class' });
    await addSession({ startsAt: '2026-03-23T18:00', title: 'First' }, true, other.id);
    await addSession({ startsAt: '2026-03-30T18:00', title: 'Second' }, true, other.id);
    await addSession({ startsAt: '2026-04-06T18:00', title: 'Unpublished' }, false, other.id);
    const res = await call(teacher, 'GET', `/api/classes/${other.id}/calendar.ics`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const calendar = new ICAL.Component(ICAL.parse(res.body));
    const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(events.map((e) => e.summary)).toEqual(['First — Calendar class', 'Second — Calendar class']);
    expect(events.map((e) => e.startDate.toJSDate().toISOString())).toEqual([
      '2026-03-23T17:00:00.000Z',
      '2026-03-30T16:00:00.000Z',
    ]);
    expect(events.map((e) => e.endDate.toJSDate().toISOString())).toEqual([
      '2026-03-23T18:30:00.000Z',
      '2026-03-30T17:30:00.000Z',
    ]);
  });
});

describe('hostile titles and the calendar file (iCalendar injection)', () => {
  const INJECTION = 'Week 1\r\nBEGIN:VEVENT\r\nSUMMARY:Free money\r\nEND:VEVENT\r\nBEGIN:VALARM\r\nTRIGGER:-PT1M';

  it('refuses line breaks and control characters in single-line fields, with a clear message', async () => {
    for (const title of ['Kick-off\r\nBEGIN:VALARM', 'Kick-off\nX', 'Kick\toff', 'Kick\u001boff', 'Kick\u2028off']) {
      const res = await call(teacher, 'POST', `/api/classes/${cls.id}/sessions`, sessionForm({ title }));
      expect(res.statusCode, JSON.stringify(title)).toBe(400);
      expect(res.json().error.fields).toEqual({ title: TEXT_MESSAGES.singleLine });
    }
    const location = await call(
      teacher,
      'POST',
      `/api/classes/${cls.id}/sessions`,
      sessionForm({ meetingUrl: '', location: 'Room 1\r\nBEGIN:VALARM' }),
    );
    expect(location.statusCode).toBe(400);
    expect(location.json().error.fields).toEqual({ location: TEXT_MESSAGES.singleLine });
    const material = await call(teacher, 'POST', `/api/classes/${cls.id}/materials`, {
      title: 'Slides\nEND:VEVENT',
      url: 'https://docs.example.test/slides',
    });
    expect(material.statusCode).toBe(400);
    expect(material.json().error.fields).toEqual({ title: TEXT_MESSAGES.singleLine });
    const upload = await ctx.app.inject({
      method: 'POST',
      url: '/api/classes',
      headers: teacher.headers,
      payload: {
        title: INJECTION,
        price: 10,
        description: 'Line one\nline two',
        image: 'https://example.test/x.webp',
        category: 'data-science',
      },
    });
    expect(upload.statusCode).toBe(400);
    expect(upload.json().error.fields?.title).toBe(TEXT_MESSAGES.singleLine);
  });

  it('keeps commas, semicolons and backslashes, and escapes what was stored before the rule: one calendar, the titles intact', async () => {
    const classTitle = `Data, science; and \\ more ${INJECTION}`;
    const other = await createClass(ctx, teacher, { title: classTitle });
    const plain = 'Intro, part 1; the \\ basics';
    const first = await addSession({ startsAt: '2026-03-23T18:00', title: plain }, true, other.id);
    expect(first.title).toBe(plain);
    const second = await addSession(
      { startsAt: '2026-03-30T18:00', title: 'Placeholder', meetingUrl: '', location: 'Room 1, floor 2; desk \\3' },
      true,
      other.id,
    );
    // A title stored before single-line fields refused control characters.
    await ctx.db
      .update(schema.classSessions)
      .set({ title: `Second${INJECTION}\u0007` })
      .where(eq(schema.classSessions.id, second._id));

    const res = await call(teacher, 'GET', `/api/classes/${other.id}/calendar.ics`);
    expect(res.statusCode).toBe(200);
    // NAME (RFC 7986) and X-WR-CALNAME are TEXT: ical.js unescapes them once told so.
    ICAL.design.icalendar.property['name'] = { defaultType: 'text' };
    ICAL.design.icalendar.property['x-wr-calname'] = { defaultType: 'text' };
    const parsed = ICAL.parse(res.body);
    // Exactly one calendar, with exactly the two published sessions and no alarm.
    expect(Array.isArray(parsed[0])).toBe(false);
    const calendar = new ICAL.Component(parsed);
    expect(calendar.name).toBe('vcalendar');
    expect(calendar.getAllSubcomponents().map((c) => c.name)).toEqual(['vevent', 'vevent']);
    expect(calendar.getAllSubcomponents('vevent').flatMap((c) => c.getAllSubcomponents('valarm'))).toEqual([]);
    // eslint-disable-next-line no-control-regex -- control characters are what this test is about
    const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ');
    expect(calendar.getFirstPropertyValue('name')).toBe(oneLine(classTitle));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(oneLine(classTitle));
    const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(events.map((e) => e.summary)).toEqual([
      `${plain} — ${oneLine(classTitle)}`,
      `${oneLine(`Second${INJECTION}\u0007`)} — ${oneLine(classTitle)}`,
    ]);
    expect(events[1]!.location).toBe('Room 1, floor 2; desk \\3');
    expect(events.map((e) => e.uid)).toEqual([`${first._id}@skillhive`, `${second._id}@skillhive`]);
    // Every line of the file is a content line of its own: no raw line break inside a value.
    for (const line of res.body.split('\r\n').filter((l: string) => l.length > 0)) {
      expect(line).toMatch(/^(?: |[A-Z-]+[;:])/);
      // eslint-disable-next-line no-control-regex -- control characters are what this test is about
      expect(line).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f]/);
    }
  });
});

describe('the meeting link', () => {
  it('is shown to a paid student only from MEETING_LINK_OPEN_MINUTES before the start to the end', async () => {
    const other = await createClass(ctx, teacher);
    const student = await createUser(ctx, 'student');
    await buy(ctx, student, [other.id]);
    await addSession({ startsAt: '2026-04-01T10:00', timeZone: 'UTC', durationMinutes: 60 }, true, other.id);
    const linkAt = async (user: TestUser, at: string) => {
      clock = new Date(at);
      const content = (await call(user, 'GET', `/api/classes/${other.id}/content`)).json() as ClassContent;
      return content.sessions[0]!.meetingUrl;
    };
    try {
      expect(await linkAt(student, '2026-04-01T09:44:59Z')).toBeNull();
      expect(await linkAt(student, '2026-04-01T09:45:00Z')).toBe('https://meet.example.test/room-1');
      expect(await linkAt(student, '2026-04-01T11:00:00Z')).toBe('https://meet.example.test/room-1');
      expect(await linkAt(student, '2026-04-01T11:00:01Z')).toBeNull();
      // The teacher always; an admin never (they moderate, they do not join).
      expect(await linkAt(teacher, '2026-03-01T00:00:00Z')).toBe('https://meet.example.test/room-1');
      expect(await linkAt(admin, '2026-04-01T10:10:00Z')).toBeNull();
      const content = (await call(student, 'GET', `/api/classes/${other.id}/content`)).json() as ClassContent;
      expect(content.sessions[0]).toMatchObject({ hasMeetingUrl: true, meetingUrlOpensAt: '2026-04-01T09:45:00.000Z' });
    } finally {
      clock = new Date('2026-03-20T12:00:00Z');
    }
  });
});

describe('material uploads and downloads', () => {
  it('stores a PDF and serves it as an attachment with the sniffed type to those allowed', async () => {
    const res = await upload(teacher, PDF, { filename: 'Week 1: notes.pdf', title: 'Week 1 notes' });
    expect(res.statusCode).toBe(201);
    const material = res.json() as ClassMaterial;
    expect(material).toMatchObject({
      kind: 'file',
      contentType: 'application/pdf',
      fileName: 'Week 1 notes.pdf',
      bytes: PDF.length,
      published: false,
      url: `/api/materials/${material._id}/file`,
    });
    await call(teacher, 'POST', `/api/materials/${material._id}/publish`, { published: true });
    const file = await call(paid, 'GET', material.url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PDF)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="Week 1 notes\.pdf"/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toBe('private, no-store');
    // Never through the public image route.
    const [row] = await ctx.db.select().from(schema.classMaterials).where(eq(schema.classMaterials.id, material._id));
    expect((await call(null, 'GET', `/api/uploads/images/${row!.fileKey}`)).statusCode).toBe(404);
  });

  it('refuses disguised programs, other types, empty and oversized files with clear messages', async () => {
    const elf = await upload(teacher, ELF, { filename: 'notes.pdf', type: 'application/pdf' });
    expect(elf.statusCode).toBe(415);
    expect(elf.json().error.message).toBe(CONTENT_MESSAGES.fileExecutable);
    const pe = await upload(teacher, PE, { filename: 'slides.pdf', type: 'application/pdf' });
    expect(pe.statusCode).toBe(415);
    expect(pe.json().error.message).toBe(CONTENT_MESSAGES.fileExecutable);
    const script = await upload(teacher, Buffer.from('#!/bin/sh\nrm -rf /\n'), { filename: 'notes.pdf' });
    expect(script.statusCode).toBe(415);
    expect(script.json().error.message).toBe(CONTENT_MESSAGES.fileUnsupported);
    const zip = await upload(teacher, Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Buffer.alloc(60)]), {
      filename: 'notes.pdf',
    });
    expect(zip.statusCode).toBe(415);
    const big = await upload(teacher, Buffer.concat([PDF, Buffer.alloc(60 * 1024, 0x20)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toBe(CONTENT_MESSAGES.fileTooLarge(0.1));
    const empty = await upload(teacher, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(CONTENT_MESSAGES.fileRequired);
    const untitled = await upload(teacher, PDF, { title: '' });
    expect(untitled.statusCode).toBe(400);
    expect(untitled.json().error.message).toBe(CONTENT_MESSAGES.titleRequired);
    const json = await call(teacher, 'POST', `/api/classes/${cls.id}/materials/file`, { title: 'x' });
    expect(json.statusCode).toBe(415);
  });

  it('deletes a material and its file', async () => {
    const other = await createClass(ctx, teacher);
    const pdf = Buffer.concat([PDF, Buffer.from('% unique to this test\n')]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/classes/${other.id}/materials/file`,
      ...(() => {
        const file = multipartBody(pdf, { field: 'file', filename: 'a.pdf' });
        const boundary = /boundary=(.+)$/.exec(file.headers['content-type'])![1]!;
        const field = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nA\r\n`);
        return { headers: { ...file.headers, ...teacher.headers }, payload: Buffer.concat([field, file.payload]) };
      })(),
    });
    expect(res.statusCode).toBe(201);
    const { _id } = res.json() as ClassMaterial;
    const [row] = await ctx.db.select().from(schema.classMaterials).where(eq(schema.classMaterials.id, _id));
    expect(await ctx.storage.get(row!.fileKey!)).not.toBeNull();
    expect((await call(teacher, 'DELETE', `/api/materials/${_id}`)).json()).toEqual({ deletedCount: 1 });
    expect(await ctx.storage.get(row!.fileKey!)).toBeNull();
  });
});

describe('editing, ordering and notifying', () => {
  it('reorders sessions and materials, refusing an order that is not every item once', async () => {
    const other = await createClass(ctx, teacher);
    const a = await addSession({ title: 'A' }, false, other.id);
    const b = await addSession({ title: 'B' }, false, other.id);
    const c = await addSession({ title: 'C' }, false, other.id);
    const res = await call(teacher, 'PUT', `/api/classes/${other.id}/sessions/order`, { ids: [c._id, a._id, b._id] });
    expect(res.statusCode).toBe(200);
    expect((res.json() as ClassSession[]).map((s) => s.title)).toEqual(['C', 'A', 'B']);
    const partial = await call(teacher, 'PUT', `/api/classes/${other.id}/sessions/order`, { ids: [c._id, a._id] });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().error.message).toBe(CONTENT_MESSAGES.orderMismatch);
    const twice = await call(teacher, 'PUT', `/api/classes/${other.id}/sessions/order`, {
      ids: [c._id, a._id, a._id],
    });
    expect(twice.statusCode).toBe(400);

    const links = [];
    for (const title of ['One', 'Two']) {
      const link = await call(teacher, 'POST', `/api/classes/${other.id}/materials`, {
        title,
        url: `https://docs.example.test/${title}`,
      });
      expect(link.statusCode).toBe(201);
      links.push(link.json() as ClassMaterial);
    }
    const reordered = await call(teacher, 'PUT', `/api/classes/${other.id}/materials/order`, {
      ids: [links[1]!._id, links[0]!._id],
    });
    expect((reordered.json() as ClassMaterial[]).map((m) => m.title)).toEqual(['Two', 'One']);
    const renamed = await call(teacher, 'PATCH', `/api/materials/${links[0]!._id}`, {
      title: 'Uno',
      url: 'https://docs.example.test/uno',
    });
    expect(renamed.json()).toMatchObject({ title: 'Uno', url: 'https://docs.example.test/uno' });
  });

  it('moving a published session e-mails its paid students (not pending or refunded ones); a draft tells no one', async () => {
    const session = await addSession({ title: 'Moved session', startsAt: '2026-05-04T18:00' });
    const before = await mailCount('session-rescheduled');
    const res = await call(
      teacher,
      'PATCH',
      `/api/class-sessions/${session._id}`,
      sessionForm({ title: 'Moved session', startsAt: '2026-05-05T19:30' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ startsAt: '2026-05-05T17:30:00.000Z', localStart: '2026-05-05T19:30' });
    const mail = await latestMail(ctx, paid.email, 'session-rescheduled');
    expect(mail.subject).toContain('Moved session');
    expect(mail.text).toContain('19:30');
    expect(mail.link.pathname).toBe(`/dashboard/myEnrollClass/${cls.id}`);
    expect(await mailCount('session-rescheduled')).toBe(before + 1);
    // A title-only edit and an edit of a draft tell nobody.
    await call(teacher, 'PATCH', `/api/class-sessions/${session._id}`, {
      ...sessionForm({ title: 'Renamed', startsAt: '2026-05-05T19:30' }),
    });
    const draft = await addSession({ startsAt: '2026-05-06T10:00' }, false);
    await call(teacher, 'PATCH', `/api/class-sessions/${draft._id}`, sessionForm({ startsAt: '2026-05-07T10:00' }));
    expect(await mailCount('session-rescheduled')).toBe(before + 1);
  });
  it('moves within the hour of the last mail are coalesced: one mail, then the outcome once the hour is over', async () => {
    const start = clock;
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    const movesTo = async (minutes: number, startsAt: string) => {
      clock = at(minutes);
      const res = await call(
        teacher,
        'PATCH',
        `/api/class-sessions/${session._id}`,
        sessionForm({ title: 'Busy session', startsAt }),
      );
      expect(res.statusCode).toBe(200);
    };
    const mailsToPaid = async () =>
      (
        await ctx.db
          .select()
          .from(schema.mailOutbox)
          .where(and(eq(schema.mailOutbox.to, paid.email), eq(schema.mailOutbox.kind, 'session-rescheduled')))
      ).filter((m) => m.subject.includes('Busy session'));
    const pass = async (minutes: number) => {
      clock = at(minutes);
      await ctx.sessionReminders.runOnce();
    };
    const session = await addSession({ title: 'Busy session', startsAt: '2026-05-10T18:00' });
    try {
      await movesTo(0, '2026-05-10T19:00');
      expect(await mailsToPaid()).toHaveLength(1);
      await movesTo(10, '2026-05-10T20:00');
      await movesTo(20, '2026-05-10T21:00');
      await pass(30);
      expect(await mailsToPaid()).toHaveLength(1);

      // The hour is over: one mail, from the time last told to the time now.
      await pass(61);
      const mails = await mailsToPaid();
      expect(mails).toHaveLength(2);
      const owed = mails.find((m) => m.text.includes('21:00'))!;
      expect(owed.text).toMatch(/It was: .*19:00/);
      await pass(62);
      expect(await mailsToPaid()).toHaveLength(2);

      // Moved and moved back within the hour: nothing to tell.
      await movesTo(70, '2026-05-10T22:00');
      await movesTo(80, '2026-05-10T21:00');
      await pass(125);
      expect(await mailsToPaid()).toHaveLength(2);

      // Past the hour a move is mailed at once again.
      await movesTo(200, '2026-05-10T23:00');
      expect(await mailsToPaid()).toHaveLength(3);
    } finally {
      clock = start;
    }
  });
});

async function mailCount(kind: string): Promise<number> {
  const rows = await ctx.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.kind, kind));
  return rows.length;
}

describe('reminders', () => {
  it('e-mails each paid student once, SESSION_REMINDER_MINUTES before, and again after a move', async () => {
    const other = await createClass(ctx, teacher, { title: 'Reminded class' });
    const [a, b, unpaid] = await Promise.all([
      createUser(ctx, 'student'),
      createUser(ctx, 'student'),
      createUser(ctx, 'student'),
    ]);
    await buy(ctx, a, [other.id]);
    await buy(ctx, b, [other.id]);
    await enrolOk(ctx, unpaid, other.id);
    const session = await addSession(
      { title: 'Remind me', startsAt: '2026-06-01T10:00', timeZone: 'UTC' },
      true,
      other.id,
    );
    const toClass = async () => {
      const rows = await ctx.db
        .select({ to: schema.mailOutbox.to })
        .from(schema.mailOutbox)
        .where(eq(schema.mailOutbox.kind, 'session-reminder'));
      return rows.map((r) => r.to).filter((to) => [a.email, b.email, unpaid.email].includes(to));
    };
    try {
      clock = new Date('2026-06-01T08:59:00Z');
      await ctx.sessionReminders.runOnce();
      expect(await toClass()).toEqual([]);
      clock = new Date('2026-06-01T09:00:00Z');
      await Promise.all([ctx.sessionReminders.runOnce(), ctx.sessionReminders.runOnce()]);
      expect((await toClass()).sort()).toEqual([a.email, b.email].sort());
      clock = new Date('2026-06-01T09:30:00Z');
      await ctx.sessionReminders.runOnce();
      expect(await toClass()).toHaveLength(2);
      const mail = await latestMail(ctx, a.email, 'session-reminder');
      expect(mail.subject).toContain('Remind me');
      // Moved an hour later: a new reminder when the new time comes near.
      await call(
        teacher,
        'PATCH',
        `/api/class-sessions/${session._id}`,
        sessionForm({ title: 'Remind me', startsAt: '2026-06-01T11:00', timeZone: 'UTC' }),
      );
      clock = new Date('2026-06-01T10:00:00Z');
      await ctx.sessionReminders.runOnce();
      expect(await toClass()).toHaveLength(4);
    } finally {
      clock = new Date('2026-03-20T12:00:00Z');
    }
  });
});

describe('reminders in the notification centre (decision 047)', () => {
  it('tells each paid student in the notification centre; the mail follows their e-mail setting', async () => {
    const other = await createClass(ctx, teacher, { title: 'Centre class' });
    const [keepsMail, noMail] = await Promise.all([createUser(ctx, 'student'), createUser(ctx, 'student')]);
    await buy(ctx, keepsMail, [other.id]);
    await buy(ctx, noMail, [other.id]);
    const off = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/me/notifications',
      headers: noMail.headers,
      payload: { teacherApplication: true, classReviews: true, newMessages: true, sessionReminders: false },
    });
    expect(off.statusCode).toBe(200);
    await addSession({ title: 'Centre session', startsAt: '2026-07-01T10:00', timeZone: 'UTC' }, true, other.id);
    const remindedOf = async (user: TestUser) => {
      const res = await ctx.app.inject({ url: '/api/notifications', headers: user.headers });
      return (res.json() as { items: { kind: string; title: string; body: string; link: string }[] }).items;
    };
    const mailsTo = async (user: TestUser) =>
      (
        await ctx.db
          .select()
          .from(schema.mailOutbox)
          .where(and(eq(schema.mailOutbox.to, user.email), eq(schema.mailOutbox.kind, 'session-reminder')))
      ).filter((m) => m.subject.includes('Centre session'));
    try {
      clock = new Date('2026-07-01T09:30:00Z');
      await ctx.sessionReminders.runOnce();
      for (const user of [keepsMail, noMail]) {
        expect(await remindedOf(user)).toEqual([
          expect.objectContaining({
            kind: 'reminder',
            title: 'Centre session starts soon',
            body: 'Centre class, Jul 1, 2026, 10:00 AM (UTC)',
            link: `/dashboard/myEnrollClass/${other.id}`,
          }),
        ]);
      }
      expect(await mailsTo(keepsMail)).toHaveLength(1);
      expect(await mailsTo(noMail)).toHaveLength(0);
    } finally {
      clock = new Date('2026-03-20T12:00:00Z');
    }
  });
});

describe('progress and verified reviews', () => {
  it('a student marks attendance and completion; the teacher and the admin see the figures', async () => {
    const other = await createClass(ctx, teacher, { title: 'Progress class' });
    const [a, b] = await Promise.all([
      createUser(ctx, 'student', { name: 'Anna A' }),
      createUser(ctx, 'student', { name: 'Bert B' }),
    ]);
    await buy(ctx, a, [other.id]);
    await buy(ctx, b, [other.id]);
    const first = await addSession({ startsAt: '2026-03-18T10:00', timeZone: 'UTC' }, true, other.id);
    const later = await addSession({ startsAt: '2026-04-18T10:00', timeZone: 'UTC' }, true, other.id);
    const link = await call(teacher, 'POST', `/api/classes/${other.id}/materials`, {
      title: 'Reading',
      url: 'https://docs.example.test/reading',
    });
    const reading = link.json() as ClassMaterial;
    await call(teacher, 'POST', `/api/materials/${reading._id}/publish`, { published: true });

    // A review before any progress is refused in a class with content (decision 021).
    const early = await call(a, 'POST', '/api/reviews', { classId: other.id, rating: 5 });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(REVIEW_MESSAGES.notVerified);

    const future = await call(a, 'PUT', `/api/class-sessions/${later._id}/attendance`, { done: true });
    expect(future.statusCode).toBe(409);
    expect(future.json().error.message).toBe(CONTENT_MESSAGES.notStarted);

    // A draft is not there for a paid student, no more than an id that is not one (then removed:
    // the figures below are of the published items).
    const draft = await addSession({ startsAt: '2026-03-18T12:00', timeZone: 'UTC' }, false, other.id);
    const draftLink = (
      await call(teacher, 'POST', `/api/classes/${other.id}/materials`, {
        title: 'Draft reading',
        url: 'https://docs.example.test/draft',
      })
    ).json() as ClassMaterial;
    for (const url of [
      `/api/class-sessions/${draft._id}/attendance`,
      `/api/materials/${draftLink._id}/completion`,
      '/api/class-sessions/nope/attendance',
      '/api/materials/nope/completion',
    ]) {
      expect((await call(a, 'PUT', url, { done: true })).statusCode, url).toBe(404);
    }
    expect((await call(teacher, 'DELETE', `/api/class-sessions/${draft._id}`)).statusCode).toBe(200);
    expect((await call(teacher, 'DELETE', `/api/materials/${draftLink._id}`)).statusCode).toBe(200);
    expect((await call(a, 'PUT', `/api/class-sessions/${first._id}/attendance`, { done: true })).json()).toEqual({
      done: true,
    });
    expect((await call(a, 'PUT', `/api/class-sessions/${first._id}/attendance`, { done: true })).statusCode).toBe(200);
    expect((await call(a, 'PUT', `/api/materials/${reading._id}/completion`, { done: true })).statusCode).toBe(200);
    expect((await call(b, 'PUT', `/api/materials/${reading._id}/completion`, { done: true })).statusCode).toBe(200);
    expect((await call(b, 'PUT', `/api/materials/${reading._id}/completion`, { done: false })).statusCode).toBe(200);

    const mine = (await call(a, 'GET', `/api/classes/${other.id}/content`)).json() as ClassContent;
    expect(mine.sessions.map((s) => s.attended)).toEqual([true, false]);
    expect(mine.materials.map((m) => m.done)).toEqual([true]);

    const progress = (await call(teacher, 'GET', `/api/classes/${other.id}/progress`)).json() as ClassProgress;
    expect(progress).toMatchObject({
      publishedSessions: 2,
      publishedMaterials: 1,
      sessionsHeld: 1,
      studentsEnrolled: 2,
      averageCompletion: 0.333,
    });
    expect(progress.students).toEqual([
      { studentId: a.id, name: 'Anna A', attendedSessions: 1, completedMaterials: 1, completion: 2 / 3 },
      { studentId: b.id, name: 'Bert B', attendedSessions: 0, completedMaterials: 0, completion: 0 },
    ]);
    const stats = await call(admin, 'GET', `/api/classes/${other.id}/stats`);
    expect(stats.statusCode).toBe(200);
    expect(stats.json().progress).toEqual({
      publishedSessions: 2,
      publishedMaterials: 1,
      sessionsHeld: 1,
      studentsEnrolled: 2,
      averageCompletion: 0.333,
    });

    // With progress, the review is accepted; without, still refused.
    expect((await call(a, 'POST', '/api/reviews', { classId: other.id, rating: 5 })).statusCode).toBe(201);
    expect((await call(b, 'POST', '/api/reviews', { classId: other.id, rating: 1 })).statusCode).toBe(409);
    const marks = await ctx.db
      .select()
      .from(schema.sessionAttendance)
      .where(and(eq(schema.sessionAttendance.sessionId, first._id), eq(schema.sessionAttendance.studentId, a.id)));
    expect(marks).toHaveLength(1);
  });
});
