import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '@skillhive/shared/rules/messages';
import { schema } from '../src/db/client.ts';
import { collectUnusedImages } from '../src/modules/uploads/image-collector.ts';
import { thumbKeyOf } from '../src/modules/uploads/image-processing.ts';
import { isImageReferenced } from '../src/modules/uploads/uploads.repository.ts';
import { createClass } from './commerce-fixtures.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';

/**
 * Upload abuse (security finding: no rate limit, no quota, unbounded CPU, images kept forever):
 * the per-user rate limit, the storage quota, the bounded processing queue and the collection of
 * unused images.
 */

const MIB = 1024 * 1024;

/** A small PNG of its own colour: each call is a different picture (a different content key). */
let colour = 0;
async function distinctPng(size = 64): Promise<Buffer> {
  colour += 1;
  return sharp({
    create: { width: size, height: size, channels: 3, background: { r: colour % 256, g: (colour * 7) % 256, b: 99 } },
  })
    .png()
    .toBuffer();
}

function uploadRequest(ctx: TestContext, user: TestUser, bytes: Buffer) {
  const boundary = `----skillhive${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="p.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/uploads/images',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...user.headers },
  });
}

const keyOfUrl = (url: string) => url.split('/').pop()!;

async function uploadRows(ctx: TestContext, ownerId: string) {
  return ctx.db.select().from(schema.uploads).where(eq(schema.uploads.ownerId, ownerId));
}

/** Test set-up: a row standing for `bytes` of images the user already stores. */
async function storedBytes(ctx: TestContext, ownerId: string, bytes: number) {
  await ctx.db.insert(schema.uploads).values({
    key: `${randomBytes(32).toString('hex')}.webp`,
    ownerId,
    contentType: 'image/webp',
    width: 10,
    height: 10,
    bytes,
  });
}

/**
 * One app for the quota and the collector suites (each app costs a migrated database): a 1 MB
 * quota, no rate limit to speak of, the collector called directly only.
 */
let shared: Promise<TestContext> | undefined;
const quotaAndCollectionApp = () =>
  (shared ??= createTestApp({
    UPLOAD_QUOTA_MB: '1',
    RATE_LIMIT_UPLOADS_PER_MINUTE: '1000',
    UPLOAD_GC_INTERVAL_MINUTES: '0',
  }));
afterAll(async () => (await shared)?.close());

describe('per-user upload rate limit', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ RATE_LIMIT_UPLOADS_PER_MINUTE: '3' });
  });
  afterAll(async () => ctx?.close());

  it('answers 429 with Retry-After past the limit, for that user only', async () => {
    const student = await createUser(ctx, 'student');
    for (let i = 0; i < 3; i++) expect((await uploadRequest(ctx, student, await distinctPng())).statusCode).toBe(200);

    const refused = await uploadRequest(ctx, student, await distinctPng());
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json()).toMatchObject({ error: { code: 'rate_limited', message: UPLOAD_MESSAGES.rateLimited } });
    expect(await uploadRows(ctx, student.id)).toHaveLength(3);

    const other = await createUser(ctx, 'teacher');
    expect((await uploadRequest(ctx, other, await distinctPng())).statusCode).toBe(200);
  });
});

describe('per-user storage quota', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await quotaAndCollectionApp();
  });

  it('refuses a user whose stored images fill the quota with 413 and a message, storing nothing', async () => {
    const student = await createUser(ctx, 'student');
    await storedBytes(ctx, student.id, MIB);

    const refused = await uploadRequest(ctx, student, await distinctPng());
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({
      error: { code: 'payload_too_large', message: UPLOAD_MESSAGES.quotaExceeded },
    });
    expect(await uploadRows(ctx, student.id)).toHaveLength(1);

    // Other users are not affected.
    const other = await createUser(ctx, 'student');
    expect((await uploadRequest(ctx, other, await distinctPng())).statusCode).toBe(200);
  });

  it('lets concurrent uploads overshoot by at most the one image that crosses the quota', async () => {
    const student = await createUser(ctx, 'student');
    await storedBytes(ctx, student.id, MIB - 1);

    const pictures = await Promise.all(Array.from({ length: 4 }, () => distinctPng(96)));
    const answers = await Promise.all(pictures.map((bytes) => uploadRequest(ctx, student, bytes)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 413, 413, 413]);
    expect(await uploadRows(ctx, student.id)).toHaveLength(2);
  });
});

describe('bounded image processing (UPLOAD_CONCURRENCY=1, UPLOAD_QUEUE_LENGTH=1)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      UPLOAD_CONCURRENCY: '1',
      UPLOAD_QUEUE_LENGTH: '1',
      RATE_LIMIT_UPLOADS_PER_MINUTE: '1000',
    });
  });
  afterAll(async () => ctx?.close());

  it('answers other requests while uploads are queued, and refuses the third concurrent upload with 503', async () => {
    const student = await createUser(ctx, 'student');
    // 36 megapixels: a few hundred milliseconds of decoding and resizing per upload.
    const heavy = await sharp({
      create: { width: 6000, height: 6000, channels: 3, background: { r: 10, g: 200, b: 30 } },
    })
      .jpeg({ quality: 60 })
      .toBuffer();
    const settled: number[] = [];
    const uploads = [1, 2, 3].map(async () => {
      const res = await uploadRequest(ctx, student, heavy);
      settled.push(res.statusCode);
      return res;
    });

    // The one past the pipeline and the queue is refused at once, before any decoding...
    const refused = await Promise.race(uploads);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.json()).toMatchObject({ error: { code: 'unavailable', message: UPLOAD_MESSAGES.busy } });

    // ...and other API requests are answered while the other two are still being processed.
    const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    const classes = await ctx.app.inject({ method: 'GET', url: '/api/classes' });
    expect(health.statusCode).toBe(200);
    expect(classes.statusCode).toBe(200);
    expect(settled).toEqual([503]);

    const statuses = (await Promise.all(uploads)).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 503]);
    // The queue is free again.
    expect((await uploadRequest(ctx, student, await distinctPng())).statusCode).toBe(200);
  });
});

describe('collection of unused images', () => {
  let ctx: TestContext;
  let teacher: TestUser;
  const NOW = new Date('2026-11-24T12:00:00Z');
  const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

  beforeAll(async () => {
    ctx = await quotaAndCollectionApp();
    teacher = await createUser(ctx, 'teacher');
  });

  async function uploadKey(bytes?: Buffer): Promise<{ key: string; displayUrl: string; thumbUrl: string }> {
    const res = await uploadRequest(ctx, teacher, bytes ?? (await distinctPng()));
    expect(res.statusCode).toBe(200);
    const { display_url: displayUrl, thumb_url: thumbUrl } = res.json().data;
    return { key: keyOfUrl(displayUrl), displayUrl, thumbUrl };
  }

  async function age(key: string, createdAt: Date) {
    await ctx.db.update(schema.uploads).set({ createdAt }).where(eq(schema.uploads.key, key));
  }

  const isStored = async (key: string) => {
    const [row] = await ctx.db.select().from(schema.uploads).where(eq(schema.uploads.key, key));
    const display = await ctx.storage.get(key);
    const thumb = await ctx.storage.get(thumbKeyOf(key));
    display?.body.destroy();
    thumb?.body.destroy();
    return { row: Boolean(row), display: Boolean(display), thumb: Boolean(thumb) };
  };
  const KEPT = { row: true, display: true, thumb: true };
  const GONE = { row: false, display: false, thumb: false };

  const collect = () => collectUnusedImages({ db: ctx.db, storage: ctx.storage, now: () => NOW, graceHours: 24 });

  it('removes an old unreferenced upload (row and files) and keeps referenced and fresh ones', async () => {
    const unused = await uploadKey();
    const fresh = await uploadKey();
    const byClass = await uploadKey();
    const byEnrollment = await uploadKey();
    const byProfile = await uploadKey();
    const byTeacherRequest = await uploadKey();
    const byRevision = await uploadKey();

    // A class using `byClass`, and an enrollment whose snapshot alone still shows `byEnrollment`.
    const cls = await createClass(ctx, teacher);
    await ctx.db.update(schema.classes).set({ imageKey: byClass.key }).where(eq(schema.classes.id, cls.id));
    const student = await createUser(ctx, 'student');
    await ctx.db.insert(schema.enrollments).values({
      classId: cls.id,
      studentId: student.id,
      studentEmail: student.email,
      teacherName: teacher.name,
      title: cls.title,
      imageKey: byEnrollment.key,
      description: 'snapshot',
      priceCents: cls.priceCents,
    });
    // A class revision waiting for review proposes `byRevision`.
    await ctx.db.insert(schema.classRevisions).values({ classId: cls.id, imageKey: byRevision.key });
    // A profile picture by its absolute thumbnail URL; a teacher request carries the account's picture.
    await createUser(ctx, 'student', { image: `http://localhost:3000${byProfile.thumbUrl}` });
    const applicant = await createUser(ctx, 'student', { image: byTeacherRequest.displayUrl });
    const applied = await ctx.app.inject({
      method: 'POST',
      url: '/api/teachers/teacher-requests',
      headers: applicant.headers,
      payload: { experience: 'beginner', title: 'Painter', category: 'graphic-design' },
    });
    expect(applied.statusCode).toBe(200);
    await ctx.db
      .update(schema.users)
      .set({ image: 'https://example.test/elsewhere.png' })
      .where(eq(schema.users.id, applicant.id));

    const old = [unused, byClass, byEnrollment, byProfile, byTeacherRequest, byRevision];
    for (const { key } of old) await age(key, hoursAgo(25));
    await age(fresh.key, hoursAgo(23));

    expect(await isImageReferenced(ctx.db, unused.key)).toBe(false);
    for (const { key } of [byClass, byEnrollment, byProfile, byTeacherRequest, byRevision]) {
      expect(await isImageReferenced(ctx.db, key)).toBe(true);
    }

    const result = await collect();
    expect(result).toMatchObject({ ran: true, failedFiles: [] });
    expect(result.removed).toContain(unused.key);
    for (const { key } of [fresh, byClass, byEnrollment, byProfile, byTeacherRequest, byRevision]) {
      expect(result.removed).not.toContain(key);
      expect(await isStored(key)).toEqual(KEPT);
    }
    expect(await isStored(unused.key)).toEqual(GONE);

    // A second run, or two at once (several instances), is harmless.
    const again = await Promise.all([collect(), collect()]);
    expect(again.flatMap((r) => r.removed)).toEqual([]);
    const remaining = await ctx.db
      .select({ key: schema.uploads.key })
      .from(schema.uploads)
      .where(
        inArray(
          schema.uploads.key,
          [fresh, ...old].map((u) => u.key),
        ),
      );
    expect(remaining).toHaveLength(6);
  });

  it('gives a picture uploaded again a fresh grace period', async () => {
    const picture = await distinctPng();
    const first = await uploadKey(picture);
    await age(first.key, hoursAgo(48));
    // Uploaded again now: the form about to use it must not lose it to the collector.
    await ctx.db
      .update(schema.uploads)
      .set({ createdAt: hoursAgo(48) })
      .where(eq(schema.uploads.key, first.key));
    const again = await uploadKey(picture);
    expect(again.key).toBe(first.key);
    const collectedLater = await collectUnusedImages({
      db: ctx.db,
      storage: ctx.storage,
      now: () => new Date(Date.now() + 23 * 3_600_000),
      graceHours: 24,
    });
    expect(collectedLater.removed).not.toContain(first.key);
    expect(await isStored(first.key)).toEqual(KEPT);
  });
});

describe('the periodic collection started by buildApp', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // A run every 30 ms, a grace period of 1.8 s: the upload is gone about two seconds later.
    ctx = await createTestApp({ UPLOAD_GC_INTERVAL_MINUTES: '0.0005', UPLOAD_GC_GRACE_HOURS: '0.0005' });
  });
  afterAll(async () => ctx?.close());

  it('removes an unused upload without being called, and stops with the app', async () => {
    const user = await createUser(ctx, 'student');
    const res = await uploadRequest(ctx, user, await distinctPng());
    expect(res.statusCode).toBe(200);
    const key = keyOfUrl(res.json().data.display_url);
    const isStored = async () => {
      const file = await ctx.storage.get(key);
      file?.body.destroy();
      return file !== null;
    };
    const isGone = async () => (await uploadRows(ctx, user.id)).length === 0 && !(await isStored());
    const deadline = Date.now() + 10_000;
    while (!(await isGone()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await isGone()).toBe(true);
  });
});
