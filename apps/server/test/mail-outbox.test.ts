import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { schema } from '../src/db/client.ts';
import { loadEnv } from '../src/env.ts';
import { queueMail, teacherRequestDecidedMail } from '../src/modules/mail/mail.service.ts';
import { buy, createCaller, createClass } from './commerce-fixtures.ts';
import { createTestApp, createUser, rawRows, type TestContext, type TestUser } from './harness.ts';
import { freePort } from './fault-helpers.ts';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.ts';

/**
 * Mail goes through an outbox written with the event, and a worker
 * delivers it over SMTP, retrying while the server is down; tested against a real SMTP server.
 */
const application = { experience: 'mid-level', title: 'Front-end mentor', category: 'web-development' } as const;

async function applyToTeach(ctx: TestContext, user: TestUser): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/teachers/teacher-requests',
    headers: user.headers,
    payload: application,
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { insertedId: string }).insertedId;
}

function decide(ctx: TestContext, admin: TestUser, id: string, action: 'approve' | 'reject', reason?: string) {
  return ctx.app.inject({
    method: 'PATCH',
    url: `/api/teachers/teacher-requests/${id}/${action}`,
    headers: admin.headers,
    ...(reason ? { payload: { reason } } : {}),
  });
}

const outbox = (ctx: TestContext) => ctx.db.select().from(schema.mailOutbox);
const FAST = { MAIL_WORKER_INTERVAL_MS: '100' };

describe('with an SMTP server', () => {
  let smtp: TestSmtpServer;
  let ctx: TestContext;
  let admin: TestUser;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    ctx = await createTestApp({ SMTP_URL: smtp.url, ...FAST });
    admin = await createUser(ctx, 'admin');
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('tells an applicant their application was approved, with a working link', async () => {
    const applicant = await createUser(ctx, 'student', { name: 'Ada Applicant' });
    const id = await applyToTeach(ctx, applicant);
    expect((await decide(ctx, admin, id, 'approve')).statusCode).toBe(200);

    const mail = await smtp.waitForMail(applicant.email, 'You can teach on SkillHive now');
    expect(mail!.to).toMatchObject({ text: applicant.email });
    expect(mail!.subject).toBe('You can teach on SkillHive now — SkillHive');
    expect(mail!.text).toContain('Hello Ada Applicant,');
    expect(mail!.text).toContain('http://localhost:3000/dashboard/addClasses');
    expect(mail!.html).toContain('href="http://localhost:3000/dashboard/addClasses"');
    const outboxRow = async () =>
      (
        await ctx.db
          .select()
          .from(schema.mailOutbox)
          .where(and(eq(schema.mailOutbox.to, applicant.email), eq(schema.mailOutbox.kind, 'teacher-request-approved')))
      )[0];
    // The SMTP server has the message before the sender hears its "250 OK" and marks the row sent.
    await expect.poll(async () => (await outboxRow())?.status).toBe('sent');
    const row = await outboxRow();
    expect(mail!.messageId).toBe(`<${row!.id}@localhost>`);
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('tells a rejected applicant the reason, escaped in the HTML', async () => {
    const applicant = await createUser(ctx, 'student');
    const id = await applyToTeach(ctx, applicant);
    expect((await decide(ctx, admin, id, 'reject', 'Add <b>more</b> detail')).statusCode).toBe(200);
    const mail = await smtp.waitForMail(applicant.email, 'Your application to teach');
    expect(mail.text).toContain('The reason: Add <b>more</b> detail');
    expect(mail.html).toContain('Add &#60;b&#62;more&#60;/b&#62; detail');
    expect(mail.text).toContain('http://localhost:3000/teach');
  });

  it('refuses a reason over 500 characters', async () => {
    const applicant = await createUser(ctx, 'student');
    const id = await applyToTeach(ctx, applicant);
    const res = await decide(ctx, admin, id, 'reject', 'x'.repeat(501));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('The reason must be at most 500 characters');
  });

  it('queues nothing when the decision fails (the mail shares the transaction)', async () => {
    const before = (await outbox(ctx)).length;
    const res = await decide(ctx, admin, '00000000-0000-4000-8000-000000000000', 'approve');
    expect(res.statusCode).toBe(404);
    expect(await outbox(ctx)).toHaveLength(before);
  });
});

describe('while the SMTP server is down', () => {
  it('keeps every mail and delivers each exactly once when the server is back', async () => {
    const port = await freePort();
    const ctx = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, ...FAST });
    let smtp: TestSmtpServer | null = null;
    try {
      for (let i = 0; i < 3; i++) {
        await queueMail(
          ctx.db,
          `person${i}@example.test`,
          teacherRequestDecidedMail({ publicUrl: 'http://x', name: `P${i}`, approved: true }),
        );
      }
      // The worker tries, fails and backs off; nothing is lost.
      const until = Date.now() + 10_000;
      while ((await outbox(ctx)).some((m) => !m.lastError) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const failed = await outbox(ctx);
      expect(failed.every((m) => m.status === 'pending' && m.attempts >= 1 && m.lastError)).toBe(true);
      // The backoff is scheduled on the database's clock (decision 032).
      const [backingOff] = await rawRows<{ waiting: boolean }>(
        ctx.db,
        sql`select bool_and(next_attempt_at > now()) as waiting from mail_outbox`,
      );
      expect(backingOff?.waiting).toBe(true);

      smtp = await startSmtpServer(port);
      // The backoff has run out (instead of waiting 15 s for it).
      await ctx.db.update(schema.mailOutbox).set({ nextAttemptAt: sql`now()` });
      await smtp.waitFor(3);
      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.messages).toHaveLength(3);
      expect(new Set(smtp.messages.map((m) => m.messageId)).size).toBe(3);
      expect((await outbox(ctx)).every((m) => m.status === 'sent')).toBe(true);
    } finally {
      await ctx.close();
      await smtp?.close();
    }
  });
});

describe('a commit with no worker running (a crash before sending)', () => {
  it('loses nothing: the next instance with SMTP sends it, and two instances send it once', async () => {
    const ctx = await createTestApp();
    const smtp = await startSmtpServer();
    const others: Awaited<ReturnType<typeof buildApp>>['app'][] = [];
    try {
      for (let i = 0; i < 25; i++) {
        await queueMail(
          ctx.db,
          `queued${i}@example.test`,
          teacherRequestDecidedMail({ publicUrl: 'http://x', name: `Q${i}`, approved: false }),
        );
      }
      expect((await outbox(ctx)).every((m) => m.status === 'pending')).toBe(true);
      // Two instances on the same database start their workers at once.
      for (let i = 0; i < 2; i++) {
        const env = loadEnv({
          NODE_ENV: 'test',
          DATA_DIR: ctx.dataDir,
          LOG_LEVEL: 'silent',
          SMTP_URL: smtp.url,
          ...FAST,
        });
        const { app } = await buildApp({
          env,
          database: ctx.database,
          storage: ctx.storage,
          authSecret: 'x'.repeat(40),
          logger: false,
        });
        others.push(app);
      }
      await Promise.all(others.map((app) => app.ready()));
      await smtp.waitFor(25);
      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.messages).toHaveLength(25);
      const rows = await outbox(ctx);
      expect(rows.every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true);
    } finally {
      for (const app of others) await app.close();
      await ctx.close();
      await smtp.close();
    }
  });
});

describe('the mailbox page (no SMTP_URL)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('shows admins the outbox, newest first; others are refused', async () => {
    const admin = await createUser(ctx, 'admin');
    const applicant = await createUser(ctx, 'student');
    const id = await applyToTeach(ctx, applicant);
    expect((await decide(ctx, admin, id, 'approve')).statusCode).toBe(200);

    const res = await ctx.app.inject({ method: 'GET', url: '/api/admin/mailbox', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    // Newest first: the decision, then the two verification mails of sign-up.
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.json().map((m: { kind: string }) => m.kind)).toEqual([
      'teacher-request-approved',
      'verify-email',
      'verify-email',
    ]);
    expect(res.json()[0]).toMatchObject({ to: applicant.email, kind: 'teacher-request-approved', status: 'pending' });
    expect(res.json()[0].text).toContain('http://localhost:3000/dashboard/addClasses');

    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/admin/mailbox', headers: applicant.headers })).statusCode,
    ).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/mailbox' })).statusCode).toBe(401);
    const rows = await ctx.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.to, applicant.email));
    expect(rows.every((row) => row.status === 'pending')).toBe(true);
  });

  it('is not there in production', async () => {
    const prod = await createTestApp({ NODE_ENV: 'production', AUTH_SECRET: 'p'.repeat(40), PAYMENTS_GATEWAY: 'test' });
    try {
      const admin = await createUser(prod, 'admin');
      expect(
        (await prod.app.inject({ method: 'GET', url: '/api/admin/mailbox', headers: admin.headers })).statusCode,
      ).toBe(404);
    } finally {
      await prod.close();
    }
  });
});

describe('notifications written with their event', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '100000' });
  });
  afterAll(async () => {
    await ctx.close();
  });
  // The mails of the event under test, not the verification mail every sign-up sends.
  const mailTo = async (to: string) =>
    ctx.db
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.to, to), ne(schema.mailOutbox.kind, 'verify-email')));

  it('tells a teacher their class was approved, or rejected with the reason', async () => {
    const admin = await createCaller(ctx, 'admin');
    const teacher = await createCaller(ctx, 'teacher', { name: 'Tess Teacher' });
    const accepted = await createClass(ctx, teacher, { status: 'pending', title: 'Pottery at home' });
    const rejected = await createClass(ctx, teacher, { status: 'pending', title: 'Knots' });
    // Each decision carries the version the admin is shown (decision 027).
    const versionOf = async (id: string) =>
      (await ctx.app.inject({ method: 'GET', url: `/api/classes/${id}`, headers: admin.headers })).json().version;
    const approve = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/classes/class-requests/${accepted.id}/approve`,
      headers: admin.headers,
      payload: { version: await versionOf(accepted.id) },
    });
    expect(approve.statusCode).toBe(200);
    const reject = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/classes/class-requests/${rejected.id}/reject`,
      headers: admin.headers,
      payload: { reason: 'Add an outline', version: await versionOf(rejected.id) },
    });
    expect(reject.statusCode).toBe(200);
    const mails = await mailTo(teacher.email);
    expect(mails.map((m) => m.kind).sort()).toEqual(['class-approved', 'class-rejected']);
    const no = mails.find((m) => m.kind === 'class-rejected')!;
    expect(no.text).toContain('Hello Tess Teacher,');
    expect(no.text).toContain('Your class "Knots" was not approved.');
    expect(no.text).toContain('The reason: Add an outline');
    expect(no.text).toContain('http://localhost:3000/dashboard/myClass');
  });

  it('sends a receipt with the classes and the total when a payment is recorded, once', async () => {
    const teacher = await createCaller(ctx, 'teacher');
    const student = await createCaller(ctx, 'student');
    const a = await createClass(ctx, teacher, { priceCents: 1250, title: 'Receipts 101' });
    const b = await createClass(ctx, teacher, { priceCents: 750, title: 'Ledgers' });
    const { transactionId } = await buy(ctx, student, [a.id, b.id]);
    const mails = await mailTo(student.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.kind).toBe('payment-receipt');
    expect(mails[0]!.text).toContain('Thank you for your payment of $20.00');
    expect(mails[0]!.text).toContain('Receipts 101: $12.50');
    expect(mails[0]!.text).toContain('Ledgers: $7.50');
    expect(mails[0]!.text).toContain(`Transaction: ${transactionId}`);
  });
});
