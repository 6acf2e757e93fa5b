import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { createShortCache } from '../src/modules/classes/classes.service.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';

/** The production catalogue cache (bench/, BENCHMARKS.md): pages and totals shared for 1 s. */

describe('createShortCache', () => {
  it('loads once for concurrent and repeated gets until the entry expires', async () => {
    let t = 0;
    let loads = 0;
    const cache = createShortCache<number>(1_000, () => t);
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load), cache.get('a', load)])).toEqual([1, 1, 1]);
    t = 999;
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('b', load)).toBe(2);
    t = 1_000;
    expect(await cache.get('a', load)).toBe(3);
  });

  it('does not keep a failed load, and with ttl 0 loads every time', async () => {
    const cache = createShortCache<number>(1_000, () => 0);
    await expect(cache.get('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('a', async () => 7)).toBe(7);
    let loads = 0;
    const off = createShortCache<number>(0);
    await off.get('a', async () => ++loads);
    await off.get('a', async () => ++loads);
    expect(loads).toBe(2);
    expect(off.enabled).toBe(false);
  });
});

describe('GET /api/classes in production', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let teacher: TestUser;
  const IMAGE_KEY = `${'d'.repeat(64)}.webp`;

  const addAcceptedClass = (title: string) =>
    ctx.db.insert(schema.classes).values({
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

  beforeAll(async () => {
    ctx = await createTestApp({
      NODE_ENV: 'production',
      AUTH_SECRET: 'catalogue-cache-test-secret-0123456789',
      PAYMENTS_GATEWAY: 'test',
    });
    admin = await createUser(ctx, 'admin');
    teacher = await createUser(ctx, 'teacher');
    await ctx.db
      .insert(schema.uploads)
      .values({ key: IMAGE_KEY, contentType: 'image/webp', width: 1, height: 1, bytes: 1 });
    await addAcceptedClass('First class');
  });
  afterAll(() => ctx.close());

  it('shares a public page and its total for a second; admins always read the database', async () => {
    const anonymous = () => ctx.app.inject({ method: 'GET', url: '/api/classes?limit=12' });
    const first = await anonymous();
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['x-total-count']).toBe('1');
    expect(first.json()).toHaveLength(1);

    await addAcceptedClass('Second class');
    const cached = await anonymous();
    expect(cached.body).toBe(first.body);
    expect(cached.headers['x-total-count']).toBe('1');

    const asAdmin = await ctx.app.inject({ method: 'GET', url: '/api/classes?limit=12', headers: admin.headers });
    expect(asAdmin.json()).toHaveLength(2);
    expect(asAdmin.headers['x-total-count']).toBe('2');

    await new Promise((r) => setTimeout(r, 1_050));
    const fresh = await anonymous();
    expect(fresh.headers['x-total-count']).toBe('2');
    expect((fresh.json() as { title: string }[]).map((c) => c.title)).toEqual(['Second class', 'First class']);
  });

  it('sends a shared page compressed as asked (brotli, else gzip), identical once decoded', async () => {
    for (let i = 0; i < 8; i++)
      await addAcceptedClass(`Filler class ${i} with a long enough title to pass one kibibyte`);
    await new Promise((r) => setTimeout(r, 1_050));
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/classes?limit=12' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await ctx.app.inject({
      method: 'GET',
      url: '/api/classes?limit=12',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['x-total-count']).toBe(plain.headers['x-total-count']);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await ctx.app.inject({
      method: 'GET',
      url: '/api/classes?limit=12',
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });
});
