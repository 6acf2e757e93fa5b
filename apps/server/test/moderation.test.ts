import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { schema } from '../src/db/client.ts';
import {
  FAST_SIGNUP_ENV,
  buy,
  type Caller,
  classCounters,
  createCaller,
  createClass,
  itAnswersEachRole,
  type MatrixRole,
  type TestClass,
} from './commerce-fixtures.ts';
import {
  cookieHeader,
  createTestApp,
  createUser,
  latestMail,
  TEST_PASSWORD,
  type TestContext,
  tokenFor,
} from './harness.ts';

/*
 * Reports and suspensions (decision 043): reporting, the admin queue, hiding content, warnings,
 * suspensions (sessions, tokens and sign-in refused; classes and reviews off every public list,
 * the shared catalogue included; financial records untouched) and lifting them.
 */

let ctx: TestContext;
let admin: Caller;
let teacher: Caller & { name: string };
let otherTeacher: Caller & { name: string };
let student: Caller & { name: string };
let reporter: Caller & { name: string };
let teacherClass: TestClass;

beforeAll(async () => {
  // The shared catalogue is on for an hour: only an invalidation can take a hidden class out of it.
  ctx = await createTestApp({
    ...FAST_SIGNUP_ENV,
    CATALOGUE_CACHE_TTL_SECONDS: '3600',
    RATE_LIMIT_REPORTS_PER_HOUR: '20',
  });
  [admin, teacher, otherTeacher, student, reporter] = await Promise.all([
    createCaller(ctx, 'admin'),
    createCaller(ctx, 'teacher', { name: 'Tess Teacher', phone: '+44 7700 900123' }),
    createCaller(ctx, 'teacher'),
    createCaller(ctx, 'student', { name: 'Stu Student' }),
    createCaller(ctx, 'student', { name: 'Rita Reporter' }),
  ]);
  teacherClass = await createClass(ctx, teacher, { title: 'Knife skills' });
});
afterAll(async () => {
  await ctx?.close();
});

function report(user: Caller | null, payload: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/api/reports', headers: user?.headers ?? {}, payload });
}

function decide(reportId: string, payload: Record<string, unknown>, user: Caller = admin) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/admin/reports/${reportId}/decision`,
    headers: user.headers,
    payload,
  });
}

async function queue(status = 'open') {
  const res = await ctx.app.inject({ url: `/api/admin/reports?status=${status}&limit=100`, headers: admin.headers });
  expect(res.statusCode).toBe(200);
  return res.json() as Array<Record<string, unknown>>;
}

/** The public catalogue's ids; a test uses its own `sort` so its first read is what the shared cache keeps. */
async function publicCatalogueIds(sort = 'newest'): Promise<string[]> {
  const res = await ctx.app.inject({ url: `/api/classes?limit=100&sort=${sort}` });
  expect(res.statusCode).toBe(200);
  return (res.json() as { _id: string }[]).map((c) => c._id);
}

async function publicReviewIds(query = ''): Promise<string[]> {
  const res = await ctx.app.inject({ url: `/api/reviews?limit=100${query}` });
  expect(res.statusCode).toBe(200);
  return (res.json() as { _id: string }[]).map((r) => r._id);
}

async function auditActions(targetId: string) {
  return ctx.db
    .select({ action: schema.auditLog.action, actorId: schema.auditLog.actorId, details: schema.auditLog.details })
    .from(schema.auditLog)
    .where(eq(schema.auditLog.targetId, targetId))
    .orderBy(asc(schema.auditLog.createdAt));
}

async function reviewOf(user: Caller, classId: string, details: string): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/reviews',
    headers: user.headers,
    payload: { classId, rating: 5, details },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { insertedId: string }).insertedId;
}

describe('POST /api/reports', () => {
  it('stores a report of a public class with what the reporter saw; a second one while it is open is refused', async () => {
    const res = await report(reporter, {
      targetType: 'class',
      targetId: teacherClass.id,
      reason: 'scam',
      details: '  Asked me to pay by bank transfer  ',
    });
    expect(res.statusCode).toBe(201);
    const id = (res.json() as { insertedId: string }).insertedId;
    const [row] = await ctx.db.select().from(schema.reports).where(eq(schema.reports.id, id));
    expect(row).toMatchObject({
      reporterId: reporter.id,
      targetType: 'class',
      targetId: teacherClass.id,
      targetLabel: 'Knife skills',
      ownerId: teacher.id,
      reason: 'scam',
      details: 'Asked me to pay by bank transfer',
      status: 'open',
    });
    const again = await report(reporter, { targetType: 'class', targetId: teacherClass.id, reason: 'spam' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('You already reported this; an admin will look at it');
  });

  it('refuses reporting yourself or your own class (409), and what is not there (404)', async () => {
    expect((await report(teacher, { targetType: 'class', targetId: teacherClass.id, reason: 'spam' })).statusCode).toBe(
      409,
    );
    expect((await report(student, { targetType: 'user', targetId: student.id, reason: 'spam' })).statusCode).toBe(409);
    for (const [targetType, targetId] of [
      ['class', '00000000-0000-4000-8000-000000000000'],
      ['class', 'not-a-uuid'],
      ['review', 'not-a-uuid'],
      ['review', '00000000-0000-4000-8000-000000000000'],
      ['user', 'nobody'],
    ]) {
      const res = await report(student, { targetType, targetId, reason: 'spam' });
      expect(res.statusCode, `${targetType} ${targetId}`).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const pending = await createClass(ctx, teacher, { status: 'pending' });
    expect((await report(student, { targetType: 'class', targetId: pending.id, reason: 'spam' })).statusCode).toBe(404);
  });

  it('answers bad input with a 400 naming the field; markup is stored as text', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ targetType: 'class', targetId: teacherClass.id }, 'reason'],
      [{ targetType: 'class', targetId: teacherClass.id, reason: '' }, 'reason'],
      [{ targetType: 'class', targetId: teacherClass.id, reason: 'because' }, 'reason'],
      [{ targetType: 'payment', targetId: teacherClass.id, reason: 'spam' }, 'targetType'],
      [{ targetType: 'class', targetId: '', reason: 'spam' }, 'targetId'],
      [{ targetType: 'class', targetId: teacherClass.id, reason: 'spam', details: 'x'.repeat(10_000) }, 'details'],
      [{ targetType: 'class', targetId: teacherClass.id, reason: 'spam', details: 'bell\u0007' }, 'details'],
    ];
    for (const [payload, field] of cases) {
      const res = await report(student, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(Object.keys(res.json().error.fields ?? {})).toContain(field);
    }
    const markup = '<script>alert(1)</script><b>bold</b>';
    const res = await report(student, { targetType: 'user', targetId: teacher.id, reason: 'abuse', details: markup });
    expect(res.statusCode).toBe(201);
    const listed = (await queue()).find((r) => r._id === res.json().insertedId);
    expect(listed).toMatchObject({
      details: markup,
      targetLabel: 'Tess Teacher',
      ownerName: 'Tess Teacher',
      reporterName: 'Stu Student',
    });
  });

  it('limits how many reports a person files in an hour (429)', async () => {
    const eager = await createCaller(ctx, 'student');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (await report(eager, { targetType: 'user', targetId: otherTeacher.id, reason: 'spam' })).statusCode,
      );
    }
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409), 429]);
  });
});

describe('the admin queue', () => {
  it('hides a class: off the public catalogue (cached pages included) and its page; reporters and the teacher hear; audited', async () => {
    const hiddenClass = await createClass(ctx, otherTeacher, { title: 'Fake certificates' });
    // Warm the shared catalogue: it now holds the class for an hour unless invalidated.
    expect(await publicCatalogueIds()).toContain(hiddenClass.id);
    const first = (await report(reporter, { targetType: 'class', targetId: hiddenClass.id, reason: 'scam' })).json()
      .insertedId;
    const second = (await report(student, { targetType: 'class', targetId: hiddenClass.id, reason: 'spam' })).json()
      .insertedId;

    const res = await decide(first, { action: 'hide', note: 'Certificates are not ours to sell' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ modifiedCount: 2 });

    expect(await publicCatalogueIds()).not.toContain(hiddenClass.id);
    expect((await ctx.app.inject({ url: `/api/classes/${hiddenClass.id}` })).statusCode).toBe(404);
    // Its teacher and admins still see it, marked hidden.
    const own = await ctx.app.inject({ url: `/api/classes/${hiddenClass.id}`, headers: otherTeacher.headers });
    expect(own.json()).toMatchObject({ status: 'hidden' });
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/enrolled',
          headers: student.headers,
          payload: { enrollId: hiddenClass.id },
        })
      ).statusCode,
    ).toBe(409);

    for (const id of [first, second]) {
      const [row] = await ctx.db.select().from(schema.reports).where(eq(schema.reports.id, id));
      expect(row).toMatchObject({ status: 'actioned', action: 'hide', decidedBy: admin.id });
    }
    expect((await latestMail(ctx, reporter.email, 'report-outcome')).text).toContain('We took action');
    expect((await latestMail(ctx, student.email, 'report-outcome')).text).toContain('We took action');
    const notice = await latestMail(ctx, otherTeacher.email, 'content-hidden');
    expect(notice.text).toContain('Fake certificates');
    expect(notice.text).toContain('Certificates are not ours to sell');
    expect(await auditActions(hiddenClass.id)).toEqual([
      {
        action: 'report.hide',
        actorId: admin.id,
        details: { reports: 2, ownerId: otherTeacher.id, reason: 'scam', note: 'Certificates are not ours to sell' },
      },
    ]);

    const again = await decide(second, { action: 'dismiss' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This report was already decided');
  });

  it('hides a review: off the class’s reviews and the home page, out of its rating', async () => {
    const cls = await createClass(ctx, otherTeacher, { title: 'Bread' });
    const buyer = await createCaller(ctx, 'student', { name: 'Rude Reviewer' });
    await buy(ctx, buyer, [cls.id]);
    const reviewId = await reviewOf(buyer, cls.id, 'Call me on +1 555 0100 and pay cash');
    expect(await classCounters(ctx, cls.id)).toMatchObject({ ratingSum: 5, reviewCount: 1 });
    const reportId = (
      await report(reporter, { targetType: 'review', targetId: reviewId, reason: 'off-platform-payment' })
    ).json().insertedId;
    const listed = (await queue()).find((r) => r._id === reportId);
    expect(listed).toMatchObject({
      targetType: 'review',
      targetLabel: 'Rude Reviewer: "Call me on +1 555 0100 and pay cash"',
      targetPath: `/classes/${cls.id}`,
      ownerId: buyer.id,
    });

    expect((await decide(reportId, { action: 'hide' })).statusCode).toBe(200);
    expect(await publicReviewIds(`&classId=${cls.id}`)).toEqual([]);
    expect(await publicReviewIds()).not.toContain(reviewId);
    expect(await classCounters(ctx, cls.id)).toMatchObject({ ratingSum: 0, reviewCount: 0 });
    // Its author editing it neither shows it again nor counts it.
    await ctx.app.inject({
      method: 'POST',
      url: '/api/reviews',
      headers: buyer.headers,
      payload: { classId: cls.id, rating: 1 },
    });
    expect(await classCounters(ctx, cls.id)).toMatchObject({ ratingSum: 0, reviewCount: 0 });
    expect(await publicReviewIds(`&classId=${cls.id}`)).toEqual([]);
    // A hidden review can no longer be reported.
    expect((await report(student, { targetType: 'review', targetId: reviewId, reason: 'spam' })).statusCode).toBe(404);
  });

  it('dismisses and warns: the reporter hears, a warned owner gets the note; a user cannot be hidden', async () => {
    const target = await createCaller(ctx, 'student', { name: 'Borderline Bob' });
    const reportId = (await report(reporter, { targetType: 'user', targetId: target.id, reason: 'abuse' })).json()
      .insertedId;
    const hide = await decide(reportId, { action: 'hide' });
    expect(hide.statusCode).toBe(409);
    expect(hide.json().error.message).toBe('Only a class, a review or a message can be hidden; warn or suspend a user');
    expect((await decide(reportId, { action: 'warn', note: 'Keep it civil' })).statusCode).toBe(200);
    const warning = await latestMail(ctx, target.email, 'moderation-warning');
    expect(warning.text).toContain('Keep it civil');
    expect(warning.text).not.toContain(reporter.name);
    expect(await auditActions(target.id)).toMatchObject([{ action: 'report.warn' }]);

    const dismissed = (await report(reporter, { targetType: 'user', targetId: target.id, reason: 'spam' })).json()
      .insertedId;
    expect((await decide(dismissed, { action: 'dismiss' })).statusCode).toBe(200);
    expect((await latestMail(ctx, reporter.email, 'report-outcome')).text).toContain('nothing was changed');
    expect((await queue('dismissed')).map((r) => r._id)).toContain(dismissed);

    // Both hear it in their notification centre too (decision 047); the reporter is not named to the owner.
    const centre = async (who: Caller) => {
      const res = await ctx.app.inject({ url: '/api/notifications?limit=50', headers: who.headers });
      expect(res.statusCode).toBe(200);
      return (res.json() as { items: { kind: string; title: string; body: string }[] }).items.filter(
        (n) => n.kind === 'moderation',
      );
    };
    const owned = await centre(target);
    expect(owned.map((n) => n.title)).toContain('A warning from the admins');
    expect(JSON.stringify(owned)).not.toContain(reporter.name);
    const heard = (await centre(reporter)).map((n) => n.body);
    expect(heard).toContain('Nothing was changed about a member you reported.');
    expect(heard).toContain('We took action about a member you reported.');
  });

  it('refuses to suspend an admin, and answers bad decisions with 400 or 404', async () => {
    const reportId = (await report(reporter, { targetType: 'user', targetId: admin.id, reason: 'abuse' })).json()
      .insertedId;
    const res = await decide(reportId, { action: 'suspend' });
    expect(res.statusCode).toBe(409);
    expect((await decide(reportId, { action: 'ban' })).statusCode).toBe(400);
    expect((await decide(reportId, { action: 'warn', note: 'x'.repeat(10_000) })).statusCode).toBe(400);
    expect((await decide('00000000-0000-4000-8000-000000000000', { action: 'dismiss' })).statusCode).toBe(404);
    expect((await decide('nope', { action: 'dismiss' })).statusCode).toBe(404);
    const direct = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${admin.id}/suspension`,
      headers: admin.headers,
      payload: {},
    });
    expect(direct.statusCode).toBe(409);
  });
});

describe('a suspension', () => {
  it('ends sessions and tokens at once, blocks sign-in, hides classes and reviews everywhere, keeps every financial record; lifting it restores them', async () => {
    const suspect = await createUser(ctx, 'teacher', { name: 'Shady Teacher' });
    const suspectToken = `Bearer ${await tokenFor(ctx, suspect)}`;
    const suspectCaller: Caller = { id: suspect.id, email: suspect.email, headers: { authorization: suspectToken } };
    const ownClass = await createClass(ctx, suspect, { title: 'Shady class' });
    const pendingClass = await createClass(ctx, suspect, { title: 'Shady draft', status: 'pending' });
    const paying = await createCaller(ctx, 'student');
    await buy(ctx, paying, [ownClass.id]);
    // The suspect also bought and reviewed another teacher's class.
    const reviewedClass = await createClass(ctx, otherTeacher, { title: 'Pottery' });
    await buy(ctx, suspectCaller, [reviewedClass.id]);
    const reviewId = await reviewOf(suspectCaller, reviewedClass.id, 'Great, but DM me for a cheaper deal');

    const me = (headers: Record<string, string>) => ctx.app.inject({ url: '/api/users/me/sessions', headers });
    expect((await me(suspect.headers)).statusCode).toBe(200);
    expect((await me({ authorization: suspectToken })).statusCode).toBe(200);
    expect(await publicCatalogueIds('price-desc')).toContain(ownClass.id);
    expect(await publicReviewIds()).toContain(reviewId);

    const money = async () => ({
      payments: await ctx.db
        .select()
        .from(schema.payments)
        .where(inArray(schema.payments.email, [paying.email, suspect.email]))
        .orderBy(asc(schema.payments.id)),
      enrollments: await ctx.db
        .select()
        .from(schema.enrollments)
        .where(inArray(schema.enrollments.classId, [ownClass.id, reviewedClass.id]))
        .orderBy(asc(schema.enrollments.id)),
      stats: (await ctx.app.inject({ url: '/api/admin/stats', headers: admin.headers })).json().totalCents,
    });
    const before = await money();
    expect(before.payments).toHaveLength(2);

    const reportId = (await report(reporter, { targetType: 'user', targetId: suspect.id, reason: 'scam' })).json()
      .insertedId;
    const res = await decide(reportId, { action: 'suspend', note: 'Selling outside the platform' });
    expect(res.statusCode).toBe(200);

    // Signed out everywhere, at once: the cookie and the token are refused.
    for (const headers of [suspect.headers, { authorization: suspectToken }]) {
      const refused = await me(headers);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.code).toBe('unauthenticated');
    }
    expect(await ctx.db.select().from(schema.sessions).where(eq(schema.sessions.userId, suspect.id))).toEqual([]);
    // Signing in again is refused, with the reason.
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: suspect.email, password: TEST_PASSWORD },
    });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.body).toContain('This account is suspended');
    expect(cookieHeader(signIn.headers['set-cookie'])).not.toMatch(/session_token=[^;]/);

    // Off every public list: the catalogue (shared pages included), the class page, the reviews.
    expect(await publicCatalogueIds('price-desc')).not.toContain(ownClass.id);
    expect((await ctx.app.inject({ url: `/api/classes/${ownClass.id}` })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: `/api/classes/${ownClass.id}/public` })).statusCode).toBe(404);
    expect(await publicReviewIds()).not.toContain(reviewId);
    expect(await publicReviewIds(`&classId=${reviewedClass.id}`)).toEqual([]);
    const [hiddenDraft] = await ctx.db.select().from(schema.classes).where(eq(schema.classes.id, pendingClass.id));
    expect(hiddenDraft).toMatchObject({ status: 'hidden', hiddenFromStatus: 'pending', hiddenReason: 'suspension' });

    // Every financial record as it was.
    expect(await money()).toEqual(before);

    expect((await latestMail(ctx, suspect.email, 'account-suspended')).text).toContain('Selling outside the platform');
    expect((await latestMail(ctx, reporter.email, 'report-outcome')).text).toContain('We took action');
    expect(await auditActions(suspect.id)).toMatchObject([{ action: 'report.suspend', actorId: admin.id }]);
    expect((await queue('actioned')).find((r) => r._id === reportId)).toMatchObject({ ownerSuspended: true });

    // Lifting it brings back what it hid, in the statuses they had; signing in works again.
    const lift = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${suspect.id}/suspension`,
      headers: admin.headers,
    });
    expect(lift.statusCode).toBe(200);
    expect(await publicCatalogueIds('price-desc')).toContain(ownClass.id);
    expect(await publicReviewIds()).toContain(reviewId);
    const [draft] = await ctx.db.select().from(schema.classes).where(eq(schema.classes.id, pendingClass.id));
    expect(draft).toMatchObject({ status: 'pending', hiddenFromStatus: null, hiddenReason: null });
    expect(await classCounters(ctx, reviewedClass.id)).toMatchObject({ ratingSum: 5, reviewCount: 1 });
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: suspect.email, password: TEST_PASSWORD },
    });
    expect(again.statusCode).toBe(200);
    expect(await auditActions(suspect.id)).toMatchObject([{ action: 'report.suspend' }, { action: 'user.reinstate' }]);
    const liftAgain = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${suspect.id}/suspension`,
      headers: admin.headers,
    });
    expect(liftAgain.statusCode).toBe(409);
  });

  it('can be made directly by an admin, without a report', async () => {
    const user = await createCaller(ctx, 'student');
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/suspension`,
      headers: admin.headers,
      payload: { note: 'Spam accounts' },
    });
    expect(res.statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/api/users/me/sessions', headers: user.headers })).statusCode).toBe(401);
    const [row] = await ctx.db
      .select({ suspendedAt: schema.users.suspendedAt })
      .from(schema.users)
      .where(and(eq(schema.users.id, user.id)));
    expect(row?.suspendedAt).toBeInstanceOf(Date);
    expect(await auditActions(user.id)).toMatchObject([{ action: 'user.suspend', details: { note: 'Spam accounts' } }]);
    const twice = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/suspension`,
      headers: admin.headers,
      payload: {},
    });
    expect(twice.statusCode).toBe(409);
  });
});

describe('permission matrix (every endpoint × anonymous, student, teacher, another teacher, admin)', () => {
  const UNKNOWN = '00000000-0000-4000-8000-000000000000';
  const callers = (): Record<Exclude<MatrixRole, 'anonymous'>, Caller> => ({
    student,
    teacher,
    otherTeacher,
    admin,
  });
  const adminOnly = (allowed: number) => ({
    anonymous: 401,
    student: 403,
    teacher: 403,
    otherTeacher: 403,
    admin: allowed,
  });
  itAnswersEachRole(
    [
      {
        name: 'POST /api/reports (the teacher’s own class)',
        method: 'POST',
        url: () => '/api/reports',
        body: () => ({ targetType: 'class', targetId: teacherClass.id, reason: 'other', details: 'matrix' }),
        expected: { anonymous: 401, student: 201, teacher: 409, otherTeacher: 201, admin: 201 },
      },
      { name: 'GET /api/admin/reports', method: 'GET', url: () => '/api/admin/reports', expected: adminOnly(200) },
      {
        name: 'POST /api/admin/reports/:id/decision (unknown report)',
        method: 'POST',
        url: () => `/api/admin/reports/${UNKNOWN}/decision`,
        body: () => ({ action: 'dismiss' }),
        expected: adminOnly(404),
      },
      {
        name: 'POST /api/admin/users/:id/suspension (unknown user)',
        method: 'POST',
        url: () => `/api/admin/users/nobody/suspension`,
        body: () => ({}),
        expected: adminOnly(404),
      },
    ],
    { ctx: () => ctx, callerOf: (role) => callers()[role] },
  );

  it('DELETE /api/admin/users/:id/suspension: anonymous → 401, others → 403, admin → 404 for an unknown user', async () => {
    const expected = { anonymous: 401, student: 403, teacher: 403, otherTeacher: 403, admin: 404 };
    for (const role of Object.keys(expected) as MatrixRole[]) {
      const res = await ctx.app.inject({
        method: 'DELETE',
        url: '/api/admin/users/nobody/suspension',
        headers: role === 'anonymous' ? {} : callers()[role].headers,
      });
      expect({ role, status: res.statusCode }).toEqual({ role, status: expected[role] });
    }
  });
});
