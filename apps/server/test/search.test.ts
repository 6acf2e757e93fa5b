import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { insertClassRow } from './class-fixtures.ts';
import { buy } from './commerce-fixtures.ts';
import { createTestApp, createUser, rawRows, type TestContext, type TestUser } from './harness.ts';

/**
 * Search people can use (decision 018): prefixes, misspellings, the teacher's name,
 * ranking, the price/rating/category filters and the suggestions; and the public class page.
 */

let ctx: TestContext;
let admin: TestUser;
let student: TestUser;
let owner: TestUser;
let otherTeacher: TestUser;
const ids: Record<string, string> = {};

async function insertClass(
  teacher: TestUser,
  key: string,
  values: {
    title: string;
    description: string;
    priceCents: number;
    category?: 'graphic-design' | 'data-science' | 'video-editing';
    status?: 'accepted' | 'pending' | 'rejected' | 'archived';
    enrollmentCount?: number;
    ratings?: number[];
  },
) {
  const imageKey = `${key
    .padEnd(64, '0')
    .slice(0, 64)
    .replace(/[^0-9a-f]/g, 'a')}.webp`;
  await ctx.db
    .insert(schema.uploads)
    .values({ key: imageKey, ownerId: teacher.id, contentType: 'image/webp', width: 1, height: 1, bytes: 1 });
  const ratings = values.ratings ?? [];
  const id = await insertClassRow(ctx, teacher, {
    title: values.title,
    description: values.description,
    priceCents: values.priceCents,
    imageKey,
    category: values.category ?? 'graphic-design',
    status: values.status ?? 'accepted',
    enrollmentCount: values.enrollmentCount ?? 0,
    ratingSum: ratings.reduce((a, b) => a + b, 0),
    reviewCount: ratings.length,
  });
  ids[key] = id;
  for (const rating of ratings) {
    const reviewer = await createUser(ctx, 'student');
    await ctx.db.insert(schema.reviews).values({ classId: id, studentId: reviewer.id, rating, details: 'Fine' });
  }
}

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await createUser(ctx, 'admin');
  student = await createUser(ctx, 'student');
  owner = await createUser(ctx, 'teacher', { name: 'Mira Okafor' });
  otherTeacher = await createUser(ctx, 'teacher', { name: 'Jonas Berg' });
  await ctx.db.insert(schema.teacherRequests).values({
    userId: owner.id,
    name: owner.name,
    email: owner.email,
    experience: 'experienced',
    title: 'Illustrator and painter',
    category: 'graphic-design',
    status: 'approved',
  });
  await insertClass(owner, 'watercolour', {
    title: 'Watercolour basics',
    description: 'Washes, layering and colour mixing for beginners',
    priceCents: 2500,
    enrollmentCount: 3,
    ratings: [5, 5, 4, 2],
  });
  await insertClass(owner, 'portraits', {
    title: 'Portraits in oil',
    description: 'Skin tones, light, and a little watercolour for underpainting',
    priceCents: 9000,
    enrollmentCount: 50,
    ratings: [3],
  });
  await insertClass(otherTeacher, 'python', {
    title: 'Python for analysts',
    description: 'Notebooks, pandas and charts',
    priceCents: 4000,
    category: 'data-science',
    enrollmentCount: 10,
  });
  await insertClass(otherTeacher, 'grading', {
    title: 'Colour grading',
    description: 'Looks for video',
    priceCents: 100,
    category: 'video-editing',
  });
  await insertClass(owner, 'pending', {
    title: 'Watercolour landscapes',
    description: 'Skies and trees',
    priceCents: 3000,
    status: 'pending',
  });
  await insertClass(owner, 'archived', {
    title: 'Watercolour flowers',
    description: 'Petals',
    priceCents: 3000,
    status: 'archived',
  });
});
afterAll(async () => {
  await ctx?.close();
});

async function search(query: string, user: TestUser | null = null) {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/classes?${query}`, headers: user?.headers ?? {} });
  const items = res.statusCode === 200 ? (res.json() as { _id: string }[]) : [];
  return {
    status: res.statusCode,
    total: Number(res.headers['x-total-count']),
    keys: items.map((item) => Object.keys(ids).find((key) => ids[key] === item._id)),
    res,
  };
}

describe('search', () => {
  it.each([
    ['a whole word', 'watercolour', ['watercolour', 'portraits']],
    ['a prefix', 'water', ['watercolour', 'portraits']],
    ['a longer prefix', 'watercol', ['watercolour', 'portraits']],
    ['a misspelled word', 'watercolur', ['watercolour', 'portraits']],
    ['a misspelled word with another', 'watercolur basics', ['watercolour']],
    ['a transposition', 'pyhton', ['python']],
    ["the teacher's first name", 'mira', ['portraits', 'watercolour']],
    ["the teacher's name, misspelled", 'okafro', ['portraits', 'watercolour']],
    ['a word of the description only', 'pandas', ['python']],
    ['an excluded word', 'watercolour -oil', ['watercolour']],
    ['either of two words (a title match first)', 'pandas or grading', ['grading', 'python']],
    ['a word nothing resembles', 'zzyzx', []],
    ['only stop words', 'the and of', []],
    ['only punctuation', "')(&|!:*", []],
  ])('finds %s', async (_what, q, expected) => {
    const { status, keys, total } = await search(`q=${encodeURIComponent(q)}`);
    expect(status).toBe(200);
    expect(keys).toEqual(expected);
    expect(total).toBe(expected.length);
  });

  it('ranks a title match above a description match, whatever the popularity', async () => {
    // "portraits" has 50 students, "watercolour" 3: the title match still comes first.
    expect((await search('q=watercolour')).keys).toEqual(['watercolour', 'portraits']);
    // Asked explicitly, another order wins over relevance.
    expect((await search('q=watercolour&sort=popular')).keys).toEqual(['portraits', 'watercolour']);
  });

  it('never finds pending or archived classes for the public, even by their own words', async () => {
    expect((await search('q=landscapes')).keys).toEqual([]);
    expect((await search('q=flowers', student)).keys).toEqual([]);
    // Admins may ask for a status.
    expect((await search('q=landscapes&status=pending', admin)).keys).toEqual(['pending']);
  });

  it('learns the words of a class when it is added or edited', async () => {
    expect((await search('q=gouache')).keys).toEqual([]);
    await ctx.db
      .update(schema.classes)
      .set({ description: 'Gouache and watercolour washes' })
      .where(eq(schema.classes.id, ids.watercolour!));
    const terms = await rawRows<{ term: string }>(ctx.db, sql`select term from search_terms where term = 'gouache'`);
    expect(terms).toHaveLength(1);
    expect((await search('q=guache')).keys).toEqual(['watercolour']);
  });
});

describe('filters', () => {
  it.each([
    ['a price range', 'minPrice=20&maxPrice=50', ['python', 'watercolour']],
    ['a lowest price', 'minPrice=90', ['portraits']],
    ['a highest price, in cents', 'maxPrice=1.00', ['grading']],
    ['a lowest rating (unrated classes left out)', 'minRating=4', ['watercolour']],
    ['a rating that only one class reaches', 'minRating=3', ['portraits', 'watercolour']],
    ['a category', 'category=data-science', ['python']],
    ['a search with a price range', 'q=water&maxPrice=30', ['watercolour']],
    ['a search with a category that has none', 'q=water&category=video-editing', []],
  ])('filters by %s', async (_what, query, expected) => {
    const { status, keys, total } = await search(`${query}&sort=price-asc`);
    expect(status).toBe(200);
    expect([...keys].sort()).toEqual([...expected].sort());
    expect(total).toBe(expected.length);
  });

  it.each([
    ['minPrice=abc', 'minPrice must be a number'],
    ['minPrice=-1', 'minPrice must be at least 0'],
    ['maxPrice=10001', 'maxPrice must be at most 10000'],
    ['minPrice=50&maxPrice=10', 'maxPrice must not be below minPrice'],
    ['minRating=0', 'minRating must be between 1 and 5'],
    ['minRating=6', 'minRating must be between 1 and 5'],
    ['minRating=four', 'minRating must be a number'],
    ['category=cooking', 'Unknown category'],
    ['sort=best', 'sort must be one of'],
    [`q=${'x'.repeat(101)}`, 'Search at most 100 characters'],
  ])('answers 400 with a clear message to %s', async (query, message) => {
    const { status, res } = await search(query);
    expect(status).toBe(400);
    const body = res.json() as { error: { code: string; message: string } };
    expect(body.error.code).toBe('validation_error');
    expect(JSON.stringify(body.error)).toContain(message);
  });
});

describe('suggestions', () => {
  const suggest = (q: string) => ctx.app.inject({ method: 'GET', url: `/api/classes/suggestions?q=${q}` });

  it('offers the best-ranked accepted classes for a prefix or a misspelling, to anyone', async () => {
    for (const q of ['wat', 'watercolur']) {
      const res = await suggest(q);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { _id: string; title: string; name: string; category: string }[];
      expect(body.map((s) => s.title)).toEqual(['Watercolour basics', 'Portraits in oil']);
      expect(body[0]).toEqual({
        _id: ids.watercolour,
        title: 'Watercolour basics',
        name: 'Mira Okafor',
        category: 'graphic-design',
      });
    }
    expect((await suggest('landsc')).json()).toEqual([]);
  });

  it('answers 400 without a query or with too long a limit', async () => {
    expect((await suggest('')).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/classes/suggestions' })).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/classes/suggestions?q=wat&limit=7' })).statusCode).toBe(
      400,
    );
  });
});

describe('classes per category', () => {
  it('counts the accepted classes of every category, to anyone', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/classes/categories' });
    expect(res.statusCode).toBe(200);
    const totals = Object.fromEntries(
      (res.json() as { category: string; total: number }[]).map((c) => [c.category, c.total]),
    );
    // Pending and archived classes are not counted; a category without classes says 0.
    expect(totals).toMatchObject({ 'graphic-design': 2, 'data-science': 1, 'video-editing': 1, 'web-development': 0 });
  });
});

describe('the public class page', () => {
  const page = (id: string, user: TestUser | null = null) =>
    ctx.app.inject({ method: 'GET', url: `/api/classes/${id}/public`, headers: user?.headers ?? {} });

  it('shows an accepted class the same to everyone: anonymous, student, its teacher, another teacher, admin', async () => {
    const bodies = [];
    for (const user of [null, student, owner, otherTeacher, admin]) {
      const res = await page(ids.watercolour!, user);
      expect(res.statusCode).toBe(200);
      bodies.push(res.json());
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    const body = bodies[0] as Record<string, unknown> & { teacher: Record<string, unknown> };
    expect(body).toMatchObject({
      _id: ids.watercolour,
      title: 'Watercolour basics',
      price: 25,
      category: 'graphic-design',
      totalEnrollment: 3,
      rating: 4,
      reviewCount: 4,
      ratingBreakdown: [0, 1, 0, 1, 2],
    });
    expect(body.teacher).toMatchObject({
      name: 'Mira Okafor',
      headline: 'Illustrator and painter',
      experience: 'experienced',
      otherClasses: [{ _id: ids.portraits, title: 'Portraits in oil', price: 90, rating: 3, reviewCount: 1 }],
    });
  });

  it('leaks no private field: no e-mail, status or moderation reason', async () => {
    const text = (await page(ids.watercolour!)).body;
    expect(text).not.toContain(owner.email);
    expect(text).not.toContain('"email"');
    expect(text).not.toContain('"status"');
    expect(text).not.toContain('rejectionReason');
    // The other classes listed are accepted ones only.
    expect(text).not.toContain(ids.pending);
    expect(text).not.toContain(ids.archived);
  });

  it('knows no pending, archived or unknown class, whoever asks', async () => {
    for (const user of [null, owner, admin]) {
      for (const id of [ids.pending!, ids.archived!, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const res = await page(id, user);
        expect(res.statusCode, `${id} as ${user?.email ?? 'anonymous'}`).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
    }
    expect((await page('x'.repeat(65))).statusCode).toBe(400);
  });

  it("pages the class's reviews through GET /api/reviews?classId=", async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/reviews?classId=${ids.watercolour}&limit=3` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(3);
    expect(res.headers['x-total-count']).toBe('4');
  });
});

describe("the viewer's own enrollment in one class", () => {
  it('GET /api/enrolled/:email?classId= answers whether the student took that class', async () => {
    const buyer = await createUser(ctx, 'student');
    await buy(ctx, buyer, [ids.python!]);
    const mine = (classId: string) =>
      ctx.app.inject({
        method: 'GET',
        url: `/api/enrolled/${encodeURIComponent(buyer.email)}?classId=${classId}`,
        headers: buyer.headers,
      });
    const paid = await mine(ids.python!);
    expect(paid.statusCode).toBe(200);
    expect((paid.json() as { enrollId: string; status: string }[]).map((e) => [e.enrollId, e.status])).toEqual([
      [ids.python, 'paid'],
    ]);
    expect((await mine(ids.grading!)).json()).toEqual([]);
    expect((await mine('not-a-uuid')).json()).toEqual([]);
    expect((await mine('x'.repeat(65))).statusCode).toBe(400);
    // Someone else's enrollments stay theirs (self-or-admin).
    const other = await ctx.app.inject({
      method: 'GET',
      url: `/api/enrolled/${encodeURIComponent(buyer.email)}?classId=${ids.python}`,
      headers: student.headers,
    });
    expect(other.statusCode).toBe(403);
  });
});
