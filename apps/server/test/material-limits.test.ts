import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_ITEMS_MAX, CONTENT_MESSAGES } from '@skillhive/shared/rules/content';
import { UPLOAD_MESSAGES } from '@skillhive/shared/rules/messages';
import { schema } from '../src/db/client.ts';
import { collectUnusedImages } from '../src/modules/uploads/image-collector.ts';
import { createClass, type TestClass } from './commerce-fixtures.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
import { multipartBody, uploadPicture } from './upload-fixtures.ts';

/**
 * Class materials under the same bounds as images (decision 027): a per-user rate limit, a
 * per-teacher storage quota, the item cap checked before a byte is stored, files collected once no
 * material uses them (a deleted class's included), and no partial file left by a failed write.
 */

const KIB = 1024;
/** A quota of 20 KiB: two 12 KiB files fit (the second crosses it), a third is refused. */
const MATERIAL_QUOTA_MB = String(20 / 1024);

let pdfCounter = 0;
/** A well-formed PDF of about `size` bytes, different each call (a different content key). */
function distinctPdf(size = 1 * KIB): Buffer {
  pdfCounter += 1;
  const body =
    `%PDF-1.4\n% material ${pdfCounter} ${Date.now()}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n` +
    '2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n';
  return Buffer.from(`${body}%${'x'.repeat(Math.max(0, size - body.length - 7))}\n%%EOF\n`);
}

function uploadMaterial(ctx: TestContext, user: TestUser, classId: string, bytes: Buffer) {
  const file = multipartBody(bytes, { field: 'file', filename: 'notes.pdf', type: 'application/pdf' });
  const boundary = /boundary=(.+)$/.exec(file.headers['content-type'])![1]!;
  const title = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nNotes\r\n`);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/classes/${classId}/materials/file`,
    headers: { ...file.headers, ...user.headers },
    payload: Buffer.concat([title, file.payload]),
  });
}

/** The material-file uploads a teacher owns (the rows that count toward the quota). */
const materialRows = (ctx: TestContext, ownerId: string) =>
  ctx.db
    .select()
    .from(schema.uploads)
    .where(eq(schema.uploads.ownerId, ownerId))
    .then((rows) => rows.filter((row) => row.key.startsWith('m-')));

/** Every file under the storage directory (material files, images, any temporary file). */
function storedFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

const fileOfMaterial = async (ctx: TestContext, id: string) => {
  const [row] = await ctx.db.select().from(schema.classMaterials).where(eq(schema.classMaterials.id, id));
  return row!.fileKey!;
};

const isInStorage = async (ctx: TestContext, key: string) => {
  const stored = await ctx.storage.get(key);
  stored?.body.destroy();
  return stored !== null;
};

describe('per-user rate limit on material uploads', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ RATE_LIMIT_UPLOADS_PER_MINUTE: '3', UPLOAD_GC_INTERVAL_MINUTES: '0' });
  });
  afterAll(async () => ctx?.close());

  it('answers 429 with Retry-After past the limit, before the body is stored', async () => {
    const teacher = await createUser(ctx, 'teacher');
    const cls = await createClass(ctx, teacher);
    for (let i = 0; i < 3; i++) {
      expect((await uploadMaterial(ctx, teacher, cls.id, distinctPdf())).statusCode).toBe(201);
    }
    const before = storedFiles(ctx.env.uploadDir).length;
    const refused = await uploadMaterial(ctx, teacher, cls.id, distinctPdf());
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toMatchObject({
      error: { code: 'rate_limited', message: UPLOAD_MESSAGES.materialRateLimited },
    });
    expect(await materialRows(ctx, teacher.id)).toHaveLength(3);
    expect(storedFiles(ctx.env.uploadDir)).toHaveLength(before);

    // Another teacher, and the same teacher's images, have budgets of their own.
    const other = await createUser(ctx, 'teacher');
    const otherClass = await createClass(ctx, other);
    expect((await uploadMaterial(ctx, other, otherClass.id, distinctPdf())).statusCode).toBe(201);
    await uploadPicture(ctx, teacher, [10, 20, 30]);
  });
});

describe('material quota, item cap and collection', () => {
  let ctx: TestContext;
  let teacher: TestUser;
  let cls: TestClass;
  beforeAll(async () => {
    ctx = await createTestApp({
      MATERIAL_QUOTA_MB,
      RATE_LIMIT_UPLOADS_PER_MINUTE: '1000',
      UPLOAD_GC_INTERVAL_MINUTES: '0',
    });
    teacher = await createUser(ctx, 'teacher');
    cls = await createClass(ctx, teacher);
  });
  afterAll(async () => ctx?.close());

  it('refuses a teacher whose stored materials fill MATERIAL_QUOTA_MB with 413, storing nothing', async () => {
    expect((await uploadMaterial(ctx, teacher, cls.id, distinctPdf(12 * KIB))).statusCode).toBe(201);
    // Crossing the quota: the last one accepted.
    expect((await uploadMaterial(ctx, teacher, cls.id, distinctPdf(12 * KIB))).statusCode).toBe(201);
    const files = storedFiles(ctx.env.uploadDir);

    const refused = await uploadMaterial(ctx, teacher, cls.id, distinctPdf(2 * KIB));
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({
      error: { code: 'payload_too_large', message: UPLOAD_MESSAGES.materialQuotaExceeded },
    });
    expect(await materialRows(ctx, teacher.id)).toHaveLength(2);
    expect(storedFiles(ctx.env.uploadDir)).toEqual(files);

    // Images keep their own quota (UPLOAD_QUOTA_MB); another teacher is not affected.
    await uploadPicture(ctx, teacher, [40, 50, 60]);
    const other = await createUser(ctx, 'teacher');
    const otherClass = await createClass(ctx, other);
    expect((await uploadMaterial(ctx, other, otherClass.id, distinctPdf())).statusCode).toBe(201);
  });

  it('checks the item cap before a byte is stored', async () => {
    const owner = await createUser(ctx, 'teacher');
    const full = await createClass(ctx, owner);
    await ctx.db.insert(schema.classMaterials).values(
      Array.from({ length: CONTENT_ITEMS_MAX }, (_, i) => ({
        classId: full.id,
        position: i,
        title: `Link ${i}`,
        url: `https://example.com/${i}`,
      })),
    );
    const files = storedFiles(ctx.env.uploadDir);
    const refused = await uploadMaterial(ctx, owner, full.id, distinctPdf());
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(CONTENT_MESSAGES.tooMany);
    expect(storedFiles(ctx.env.uploadDir)).toEqual(files);
    expect(await materialRows(ctx, owner.id)).toHaveLength(0);
  });

  it('collects a file no material uses after the grace period, a deleted class’s files included', async () => {
    const owner = await createUser(ctx, 'teacher');
    const kept = await createClass(ctx, owner);
    const deleted = await createClass(ctx, owner, { status: 'pending' });
    const used = (await uploadMaterial(ctx, owner, kept.id, distinctPdf())).json() as { _id: string };
    const ofDeleted = (await uploadMaterial(ctx, owner, deleted.id, distinctPdf())).json() as { _id: string };
    const usedKey = await fileOfMaterial(ctx, used._id);
    const deletedKey = await fileOfMaterial(ctx, ofDeleted._id);

    const removal = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/classes/${deleted.id}`,
      headers: owner.headers,
    });
    expect(removal.json()).toEqual({ deletedCount: 1 });
    expect(await isInStorage(ctx, deletedKey)).toBe(true);

    const collect = (hoursLater: number) =>
      collectUnusedImages({
        db: ctx.db,
        storage: ctx.storage,
        now: () => new Date(Date.now() + hoursLater * 3_600_000),
        graceHours: ctx.env.UPLOAD_GC_GRACE_HOURS,
      });
    // Within the grace period (a form may still be using a fresh upload): kept.
    expect((await collect(1)).removed).not.toContain(deletedKey);
    expect(await isInStorage(ctx, deletedKey)).toBe(true);

    const after = await collect(ctx.env.UPLOAD_GC_GRACE_HOURS + 1);
    expect(after.removed).toContain(deletedKey);
    expect(after.removed).not.toContain(usedKey);
    expect(await isInStorage(ctx, deletedKey)).toBe(false);
    expect(await ctx.db.select().from(schema.uploads).where(like(schema.uploads.key, deletedKey))).toEqual([]);
    expect(await isInStorage(ctx, usedKey)).toBe(true);
    const download = await ctx.app.inject({
      method: 'GET',
      url: `/api/materials/${used._id}/file`,
      headers: owner.headers,
    });
    expect(download.statusCode).toBe(200);
  });
});

describe('a write cut short', () => {
  it('leaves no partial file in the storage directory (a real file size limit, EFBIG)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skillhive-partial-'));
    try {
      const storageModule = fileURLToPath(new URL('../src/modules/uploads/storage.public.ts', import.meta.url));
      const child = `
        import { createLocalStorage } from ${JSON.stringify(storageModule)};
        const storage = createLocalStorage(process.argv[1]);
        try {
          await storage.put('m-${'a'.repeat(64)}.pdf', Buffer.alloc(256 * 1024, 1), 'application/pdf');
          console.log('stored');
        } catch (error) {
          console.log('refused', error.code);
        }`;
      // ulimit -f: the kernel stops the write at 16 KiB; Node ignores SIGXFSZ, so the write fails with EFBIG.
      const run = spawnSync(
        'bash',
        ['-c', 'ulimit -f 16; exec "$@"', 'bash', process.execPath, '--input-type=module', '-e', child, dir],
        { encoding: 'utf8' },
      );
      expect(run.stdout.trim(), run.stderr).toBe('refused EFBIG');
      expect(storedFiles(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
