import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { createTestApp, createUser, type TestContext } from './harness.ts';

/**
 * Relevance past 1 000 matches (decision 018, "Tiers"): the total stops at 1 000 and says so, and
 * the page is read tier by tier (a title-and-teacher match first, the description after, each
 * most popular first), across the boundary of the two tiers too.
 */

const IMAGE_KEY = `${'d'.repeat(64)}.webp`;
/** Classes with the word in the title (tier one), enrollments 1..TITLE. */
const TITLE = 700;
/** Classes with the word only in the description (tier two), enrollments 1001..1000+DESCRIPTION. */
const DESCRIPTION = 500;

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
  const teacher = await createUser(ctx, 'teacher', { name: 'Tier Teacher' });
  await ctx.db
    .insert(schema.uploads)
    .values({ key: IMAGE_KEY, contentType: 'image/webp', width: 1, height: 1, bytes: 1 });
  const insert = (title: string, description: string, enrollments: string, from: number, to: number) =>
    ctx.db.execute(sql`
      insert into classes (teacher_id, teacher_name, teacher_email, title, description, price_cents, image_key,
                           category, status, enrollment_count)
      select ${teacher.id}, ${teacher.name}, ${teacher.email}, ${title} || ' ' || g, ${description}, 1000, ${IMAGE_KEY},
             'data-science', 'accepted', ${sql.raw(enrollments)}
      from generate_series(${from}::int, ${to}::int) as g`);
  await insert('Zebrafish care', 'Tanks and water', 'g', 1, TITLE);
  // More popular than every title match: the tier still comes first.
  await insert('Aquarium basics', 'Includes zebrafish', '1000 + g', 1, DESCRIPTION);
  // A few for a search under the cap: ordered from its one read.
  await insert('Quagga history', 'Stripes', 'g', 1, 3);
  await insert('Savanna walks', 'Sometimes a quagga', '100 + g', 1, 2);
  await ctx.db.execute(sql`analyze classes`);
});
afterAll(async () => {
  await ctx?.close();
});

async function search(query: string) {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/classes?${query}` });
  expect(res.statusCode).toBe(200);
  return {
    total: Number(res.headers['x-total-count']),
    capped: res.headers['x-total-count-capped'],
    enrollments: (res.json() as { totalEnrollment: number }[]).map((item) => item.totalEnrollment),
  };
}

const range = (from: number, to: number) =>
  Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (from < to ? from + i : from - i));

describe('search past 1 000 matches', () => {
  it('says "at least 1 000" and lists the title matches first, most popular first', async () => {
    const first = await search('q=zebrafish');
    expect(first.total).toBe(1000);
    expect(first.capped).toBe('true');
    expect(first.enrollments).toEqual(range(TITLE, TITLE - 11));
  });

  it('goes on from the last title match to the description matches, most popular first', async () => {
    // Page 59 of 12 starts at the 697th: the last four title matches, then eight description ones.
    const boundary = await search('q=zebrafish&page=59');
    expect(boundary.enrollments).toEqual([...range(4, 1), ...range(1000 + DESCRIPTION, 1000 + DESCRIPTION - 7)]);
    // Past the title matches altogether.
    const after = await search('q=zebrafish&page=8&limit=100');
    expect(after.enrollments).toEqual(range(1000 + DESCRIPTION, 1000 + DESCRIPTION - 99));
    // Past every match.
    expect((await search('q=zebrafish&page=13&limit=100')).enrollments).toEqual([]);
  });

  it('counts exactly under the cap, and orders the same way', async () => {
    const few = await search('q=quagga');
    expect(few.total).toBe(5);
    expect(few.capped).toBeUndefined();
    expect(few.enrollments).toEqual([3, 2, 1, 102, 101]);
  });

  it('counts up to the cap in another order too', async () => {
    const popular = await search('q=zebrafish&sort=popular');
    expect(popular.total).toBe(1000);
    expect(popular.capped).toBe('true');
    expect(popular.enrollments).toEqual(range(1000 + DESCRIPTION, 1000 + DESCRIPTION - 11));
  });
});
