import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { createShortCache } from '../src/lib/short-cache.ts';
import { sharedPageEncoding } from '../src/plugins/catalogue-cache.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';

/**
 * The shared catalogue (plugins/catalogue-cache.ts; bench/, BENCHMARKS.md): public pages and
 * totals shared for CATALOGUE_CACHE_TTL_SECONDS on the app's clock, compressed once per page.
 */

describe('createShortCache', () => {
  it('loads once for concurrent and repeated gets, and again at exactly the TTL', async () => {
    let t = 1_000_000;
    let loads = 0;
    const cache = createShortCache<number>({ ttlMs: 1_000, now: () => t });
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load), cache.get('a', load)])).toEqual([1, 1, 1]);
    t += 999;
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('b', load)).toBe(2);
    t += 1;
    expect(await cache.get('a', load)).toBe(3);
    expect(cache.enabled).toBe(true);
  });

  it('does not keep a failed load, and with a TTL of 0 loads every time', async () => {
    const cache = createShortCache<number>({ ttlMs: 1_000, now: () => 1_000_000 });
    await expect(cache.get('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('a', async () => 7)).toBe(7);
    let loads = 0;
    const off = createShortCache<number>({ ttlMs: 0, now: () => 1_000_000 });
    await off.get('a', async () => ++loads);
    await off.get('a', async () => ++loads);
    expect(loads).toBe(2);
    expect(off.enabled).toBe(false);
  });
});

describe('sharedPageEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(sharedPageEncoding('gzip, deflate, br')).toBe('br');
    expect(sharedPageEncoding('br;q=0, gzip')).toBe('gzip');
    expect(sharedPageEncoding('br;q=0.0, gzip;q=0')).toBeNull();
    expect(sharedPageEncoding('deflate')).toBeNull();
    expect(sharedPageEncoding(undefined)).toBeNull();
  });
});

const IMAGE_KEY = `${'d'.repeat(64)}.webp`;

/** `ms` is the monotonic clock; `wallStepMs` moves only the wall clock (an NTP step, a VM resume). */
async function catalogueApp(ttlSeconds: string, clock: { ms: number; wallStepMs?: number }) {
  const ctx = await createTestApp(
    { CATALOGUE_CACHE_TTL_SECONDS: ttlSeconds },
    { now: () => new Date(clock.ms + (clock.wallStepMs ?? 0)), monotonicNow: () => clock.ms },
  );
  const admin = await createUser(ctx, 'admin');
  const teacher = await createUser(ctx, 'teacher');
  await ctx.db
    .insert(schema.uploads)
    .values({ key: IMAGE_KEY, contentType: 'image/webp', width: 1, height: 1, bytes: 1 });
  return { ctx, admin, teacher };
}

function addAcceptedClass(ctx: TestContext, teacher: TestUser, title: string) {
  return ctx.db.insert(schema.classes).values({
    teacherId: teacher.id,
    teacherName: teacher.name,
    teacherEmail: teacher.email,
    title,
    description: `${title}, in depth`,
    priceCents: 1000,
    imageKey: IMAGE_KEY,
    category: 'data-science',
    status: 'accepted',
  });
}

const titles = (body: unknown) => (body as { title: string }[]).map((c) => c.title);

describe('GET /api/classes with CATALOGUE_CACHE_TTL_SECONDS=1', () => {
  const clock: { ms: number; wallStepMs?: number } = { ms: Date.now() };
  let ctx: TestContext;
  let admin: TestUser;
  let teacher: TestUser;
  const anonymous = (headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url: '/api/classes?limit=12', headers });

  beforeAll(async () => {
    ({ ctx, admin, teacher } = await catalogueApp('1', clock));
    await addAcceptedClass(ctx, teacher, 'First class');
  });
  afterAll(() => ctx.close());

  it('shares a public page and its total until exactly the TTL (admins too); an admin asking for a status reads the database', async () => {
    const first = await anonymous();
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['x-total-count']).toBe('1');
    expect(titles(first.json())).toEqual(['First class']);

    await addAcceptedClass(ctx, teacher, 'Second class');
    clock.ms += 999;
    const cached = await anonymous();
    expect(cached.body).toBe(first.body);
    expect(cached.headers['x-total-count']).toBe('1');
    // A signed-in non-admin shares the same page.
    const asTeacher = await ctx.app.inject({ method: 'GET', url: '/api/classes?limit=12', headers: teacher.headers });
    expect(asTeacher.body).toBe(first.body);

    // The public catalogue is the same for admins: without ?status= they share the page too.
    const asAdmin = await ctx.app.inject({ method: 'GET', url: '/api/classes?limit=12', headers: admin.headers });
    expect(asAdmin.body).toBe(first.body);
    const moderation = await ctx.app.inject({
      method: 'GET',
      url: '/api/classes?limit=12&status=accepted',
      headers: admin.headers,
    });
    expect(titles(moderation.json())).toEqual(['Second class', 'First class']);
    expect(moderation.headers['x-total-count']).toBe('2');

    clock.ms += 1;
    const fresh = await anonymous();
    expect(fresh.headers['x-total-count']).toBe('2');
    expect(titles(fresh.json())).toEqual(['Second class', 'First class']);
  });

  it('measures the TTL on the monotonic clock: a wall clock stepped back an hour keeps no page longer', async () => {
    clock.ms += 1_000;
    const before = await anonymous();
    await addAcceptedClass(ctx, teacher, 'After the step');
    clock.wallStepMs = -3_600_000;
    clock.ms += 1_000;
    const after = await anonymous();
    expect(titles(after.json())[0]).toBe('After the step');
    expect(Number(after.headers['x-total-count'])).toBe(Number(before.headers['x-total-count']) + 1);
    clock.wallStepMs = 0;
  });

  it('sends a shared page compressed as asked (brotli, else gzip), identical once decoded, with Vary', async () => {
    for (let i = 0; i < 8; i++)
      await addAcceptedClass(ctx, teacher, `Filler class ${i} with a long enough title to pass one kibibyte`);
    clock.ms += 1_000;
    const plain = await anonymous();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await anonymous({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['x-total-count']).toBe(plain.headers['x-total-count']);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await anonymous({ 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toContain('accept-encoding');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });
});

describe('GET /api/classes with CATALOGUE_CACHE_TTL_SECONDS=0', () => {
  const clock = { ms: Date.now() };
  let ctx: TestContext;
  let teacher: TestUser;

  beforeAll(async () => {
    ({ ctx, teacher } = await catalogueApp('0', clock));
    await addAcceptedClass(ctx, teacher, 'First class');
  });
  afterAll(() => ctx.close());

  it('reads the database for every request, and still compresses as asked', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/api/classes?limit=12' });
    expect(first.headers['x-total-count']).toBe('1');
    await addAcceptedClass(ctx, teacher, 'Second class');
    const second = await ctx.app.inject({ method: 'GET', url: '/api/classes?limit=12' });
    expect(second.headers['x-total-count']).toBe('2');
    expect(titles(second.json())).toEqual(['Second class', 'First class']);

    for (let i = 0; i < 8; i++)
      await addAcceptedClass(ctx, teacher, `Filler class ${i} with a long enough title to pass one kibibyte`);
    const br = await ctx.app.inject({
      method: 'GET',
      url: '/api/classes?limit=12',
      headers: { 'accept-encoding': 'br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['x-total-count']).toBe('10');
    expect(titles(JSON.parse(brotliDecompressSync(br.rawPayload).toString()))).toHaveLength(10);
  });
});
