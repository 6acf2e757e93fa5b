import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openPglite, schema, type Db } from '../src/db/client.ts';
import { loadEnv } from '../src/env.ts';
import { queueMail, teacherRequestDecidedMail } from '../src/modules/mail/mail.service.ts';
import { createSmtpSender } from '../src/modules/mail/mail.transport.ts';
import { createMailWorker } from '../src/modules/mail/mail.worker.ts';
import { freePort, spawnServer, waitReady } from './fault-helpers.ts';
import { createTestApp, rawRows, type TestContext } from './harness.ts';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.ts';

/**
 * Each mail is sent once without a crash (decision 032), against a real, slow SMTP server: with an
 * instance's clock three minutes ahead of or behind the database's, with a batch that takes longer
 * than its lease, and across a SIGTERM while a message is being sent.
 */
const FAST = { MAIL_WORKER_INTERVAL_MS: '100' };
const outbox = (db: Db) => db.select().from(schema.mailOutbox);

async function queue(db: Db, count: number, prefix: string) {
  for (let i = 0; i < count; i++) {
    await queueMail(
      db,
      `${prefix}${i}@example.test`,
      teacherRequestDecidedMail({ publicUrl: 'http://x', name: `${prefix}${i}`, approved: false }),
    );
  }
}

/** A second instance on `ctx`'s database, whose wall clock is `skewMs` off. */
async function instanceWithClock(ctx: TestContext, smtp: TestSmtpServer, skewMs: number) {
  const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: ctx.dataDir, LOG_LEVEL: 'silent', SMTP_URL: smtp.url, ...FAST });
  const { app } = await buildApp({
    env,
    database: ctx.database,
    storage: ctx.storage,
    authSecret: 'x'.repeat(40),
    logger: false,
    now: () => new Date(Date.now() + skewMs),
  });
  await app.ready();
  return app;
}

const messageIds = (smtp: TestSmtpServer) => smtp.messages.map((m) => m.messageId);

describe('the outbox with skewed clocks', () => {
  it('sends each mail once when one instance runs three minutes ahead of the other', async () => {
    const smtp = await startSmtpServer(0, { delayMs: 150 });
    const ctx = await createTestApp();
    const apps: Awaited<ReturnType<typeof instanceWithClock>>[] = [];
    try {
      await queue(ctx.db, 8, 'ahead');
      // The instance on time takes the batch and sends slowly; the one ahead looks on meanwhile.
      apps.push(await instanceWithClock(ctx, smtp, 0));
      await expect.poll(() => smtp.receiving(), { timeout: 10_000 }).toBeGreaterThan(0);
      apps.push(await instanceWithClock(ctx, smtp, 3 * 60_000));
      await expect
        .poll(async () => (await outbox(ctx.db)).every((m) => m.status === 'sent'), { timeout: 20_000 })
        .toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(messageIds(smtp)).toHaveLength(8);
      expect(new Set(messageIds(smtp)).size).toBe(8);
    } finally {
      for (const app of apps) await app.close();
      await ctx.close();
      await smtp.close();
    }
  }, 40_000);

  it('sends new mail from an instance whose clock is three minutes behind the database', async () => {
    const smtp = await startSmtpServer();
    const ctx = await createTestApp();
    let app: Awaited<ReturnType<typeof instanceWithClock>> | undefined;
    try {
      app = await instanceWithClock(ctx, smtp, -3 * 60_000);
      await queue(ctx.db, 3, 'behind');
      await smtp.waitFor(3, 10_000);
      expect(new Set(messageIds(smtp)).size).toBe(3);
      await expect.poll(async () => (await outbox(ctx.db)).every((m) => m.status === 'sent')).toBe(true);
    } finally {
      await app?.close();
      await ctx.close();
      await smtp.close();
    }
  }, 30_000);
});

describe('a batch slower than its lease', () => {
  it('keeps its leases while it sends: two workers send ten mails once each', async () => {
    // 10 messages at 200 ms each take 2 s; the lease is 600 ms.
    const smtp = await startSmtpServer(0, { delayMs: 200 });
    const ctx = await createTestApp();
    const senders = [0, 1].map(() => createSmtpSender(smtp.url, 'SkillHive <no-reply@skillhive.test>', 'x.test'));
    const workers = senders.map((sender) =>
      createMailWorker({ db: ctx.db, send: sender.send, log: ctx.app.log, intervalMs: 50, leaseMs: 600 }),
    );
    try {
      await queue(ctx.db, 10, 'slow');
      for (const worker of workers) worker.start();
      await expect
        .poll(async () => (await outbox(ctx.db)).every((m) => m.status === 'sent'), { timeout: 20_000 })
        .toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(messageIds(smtp)).toHaveLength(10);
      expect(new Set(messageIds(smtp)).size).toBe(10);
      // Each was claimed and sent once.
      expect((await outbox(ctx.db)).map((m) => m.attempts)).toEqual(Array(10).fill(1));
    } finally {
      for (const worker of workers) await worker.stop();
      for (const sender of senders) sender.close();
      await ctx.close();
      await smtp.close();
    }
  }, 40_000);
});

describe('SIGTERM while the worker sends', () => {
  it('exits 0 having finished the message it was sending; the rest are released, none held or sent twice', async () => {
    // Each message takes 3 s to be accepted: five would outlast SHUTDOWN_TIMEOUT_MS (10 s).
    const smtp = await startSmtpServer(0, { delayMs: 3_000 });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'skillhive-mail-stop-'));
    try {
      const before = await openPglite(dataDir);
      await before.migrate();
      await queue(before.db, 5, 'stop');
      await before.close();

      const port = await freePort();
      const server = spawnServer(port, { DATA_DIR: dataDir, SMTP_URL: smtp.url, ...FAST });
      await waitReady(server, 60_000);
      await expect.poll(() => smtp.receiving(), { timeout: 15_000 }).toBe(1);
      server.child.kill('SIGTERM');
      expect(await server.exited, server.output()).toBe(0);

      const after = await openPglite(dataDir);
      try {
        const rows = await outbox(after.db);
        // What the server heard "250 OK" for is marked sent; nothing else was delivered.
        const sent = rows.filter((m) => m.status === 'sent');
        expect(sent).toHaveLength(smtp.messages.length);
        expect(sent.length).toBeGreaterThanOrEqual(1);
        // No lease left to wait out: a restarted instance sends the rest at once.
        const held = await rawRows<{ n: number }>(
          after.db,
          sql`select count(*)::int as n from mail_outbox where status = 'pending' and locked_until > now()`,
        );
        expect(held[0]!.n).toBe(0);
        // The released ones were never attempted.
        expect(rows.filter((m) => m.status === 'pending').every((m) => m.attempts === 0)).toBe(true);
      } finally {
        await after.close();
      }
    } finally {
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
