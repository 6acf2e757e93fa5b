import { sql, type SQLWrapper } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '@skillhive/shared/rules/constants';
import { schema } from '../src/db/client.ts';
import { catalogueQuery, searchTierQuery, type CatalogueFilter } from '../src/modules/classes/catalogue.repository.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';

let ctx: TestContext;
let admin: TestUser;
let student: TestUser;
const IMAGE_KEY = `${'c'.repeat(64)}.webp`;
const DAY = 24 * 60 * 60 * 1000;

/** The accepted catalogue, oldest first (ids filled in beforeAll). */
const accepted: {
  key: string;
  title: string;
  description: string;
  category: Category;
  priceCents: number;
  enrollmentCount: number;
  teacher: 'grace' | 'alan' | 'radia';
  ratingSum?: number;
  reviewCount?: number;
  id?: string;
}[] = [
  {
    key: 'react',
    title: 'React from zero to production',
    description: 'Components, hooks and deployment',
    category: 'web-development',
    priceCents: 4900,
    enrollmentCount: 10,
    teacher: 'grace',
  },
  {
    key: 'css',
    title: 'Modern CSS layouts',
    description: 'Grid and flexbox in practice',
    category: 'web-development',
    priceCents: 1900,
    enrollmentCount: 25,
    teacher: 'alan',
  },
  {
    key: 'python',
    title: 'Python for data analysis',
    description: 'pandas, notebooks and charts',
    category: 'data-science',
    priceCents: 7900,
    enrollmentCount: 3,
    teacher: 'radia',
    ratingSum: 9,
    reviewCount: 2,
  },
  {
    key: 'stats',
    title: 'Statistics without tears',
    description: 'Probability and inference explained',
    category: 'data-science',
    priceCents: 2900,
    enrollmentCount: 40,
    teacher: 'grace',
  },
  {
    key: 'logo',
    title: 'Logo design workshop',
    description: 'Marks that last',
    category: 'graphic-design',
    priceCents: 9900,
    enrollmentCount: 0,
    teacher: 'alan',
  },
  {
    key: 'security',
    title: 'Security basics for everyone',
    description: 'Passwords, phishing and updates',
    category: 'cyber-security',
    priceCents: 50,
    enrollmentCount: 7,
    teacher: 'radia',
  },
  {
    key: 'grading',
    title: 'Colour grading',
    description: 'Video colour correction and looks',
    category: 'video-editing',
    priceCents: 1_000_000,
    enrollmentCount: 12,
    teacher: 'grace',
  },
  {
    key: 'email',
    title: 'Email campaigns that convert',
    description: 'Designing email marketing sequences',
    category: 'digital-marketing',
    priceCents: 3500,
    enrollmentCount: 1,
    teacher: 'alan',
  },
];
const hidden: Record<'pending' | 'rejected' | 'archived', string> = { pending: '', rejected: '', archived: '' };

const idsOf = (keys: string[]) => keys.map((k) => accepted.find((c) => c.key === k)!.id);
const newestFirst = () => [...accepted].reverse().map((c) => c.id);

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await createUser(ctx, 'admin');
  student = await createUser(ctx, 'student');
  const teachers = {
    grace: await createUser(ctx, 'teacher', { name: 'Grace Hopper' }),
    alan: await createUser(ctx, 'teacher', { name: 'Alan Turing' }),
    radia: await createUser(ctx, 'teacher', { name: 'Radia Perlman' }),
  };
  await ctx.db
    .insert(schema.uploads)
    .values({ key: IMAGE_KEY, contentType: 'image/webp', width: 1, height: 1, bytes: 1 });
  const start = Date.now() - 30 * DAY;
  const row = (teacher: TestUser, i: number) => ({
    teacherId: teacher.id,
    teacherName: teacher.name,
    teacherEmail: teacher.email,
    imageKey: IMAGE_KEY,
    createdAt: new Date(start + i * DAY),
  });
  for (const [i, c] of accepted.entries()) {
    const [inserted] = await ctx.db
      .insert(schema.classes)
      .values({
        ...row(teachers[c.teacher], i),
        title: c.title,
        description: c.description,
        category: c.category,
        priceCents: c.priceCents,
        enrollmentCount: c.enrollmentCount,
        ratingSum: c.ratingSum ?? 0,
        reviewCount: c.reviewCount ?? 0,
        status: 'accepted',
      })
      .returning({ id: schema.classes.id });
    c.id = inserted!.id;
  }
  // Classes the public must never see, all about React and newer than everything else.
  for (const [i, status] of (['pending', 'rejected', 'archived'] as const).entries()) {
    const [inserted] = await ctx.db
      .insert(schema.classes)
      .values({
        ...row(teachers.grace, 20 + i),
        title: `A ${status} React class`,
        description: 'Hooks and more',
        category: 'web-development',
        priceCents: 100,
        status,
      })
      .returning({ id: schema.classes.id });
    hidden[status] = inserted!.id;
  }
});
afterAll(async () => {
  await ctx?.close();
});

async function list(query = '', user: TestUser | null = null) {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/classes${query}`, headers: user?.headers ?? {} });
  return {
    status: res.statusCode,
    total: Number(res.headers['x-total-count']),
    items: res.statusCode === 200 ? (res.json() as Record<string, unknown>[]) : [],
    res,
  };
}
const ids = (items: Record<string, unknown>[]) => items.map((i) => i._id);

describe('the public catalogue', () => {
  it('shows accepted classes only, newest first, with X-Total-Count', async () => {
    const { status, total, items } = await list();
    expect(status).toBe(200);
    expect(total).toBe(8);
    expect(ids(items)).toEqual(newestFirst());
    for (const id of Object.values(hidden)) expect(ids(items)).not.toContain(id);
  });

  it('carries enrollment totals, ratings and decimal prices on each item', async () => {
    const { items } = await list('?sort=price-asc&limit=100');
    const python = items.find((i) => i._id === accepted[2]!.id);
    expect(python).toMatchObject({
      title: 'Python for data analysis',
      name: 'Radia Perlman',
      price: 79,
      totalEnrollment: 3,
      rating: 4.5,
      reviewCount: 2,
      status: 'accepted',
      image: `/api/uploads/images/${IMAGE_KEY}`,
    });
    const logo = items.find((i) => i._id === accepted[4]!.id);
    expect(logo).toMatchObject({ totalEnrollment: 0, rating: null, reviewCount: 0 });
    expect(items[0]).toMatchObject({ price: 0.5 });
  });

  it('filters by category', async () => {
    const { total, items } = await list('?category=web-development');
    expect(total).toBe(2);
    expect(ids(items)).toEqual(idsOf(['css', 'react']));
  });

  it.each([
    ['a title word', 'react', ['react']],
    ['a description word', 'flexbox', ['css']],
    // Ranked by relevance (decision 018): a title match before a description match.
    ['a stemmed word (design, designing)', 'design', ['logo', 'email']],
    // The same rank for all three (the teacher's name): the more popular first.
    ["the teacher's name", 'hopper', ['stats', 'grading', 'react']],
    ['a quoted phrase', '"grid and flexbox"', ['css']],
    ['an OR', 'pandas or phishing', ['security', 'python']],
    ['an excluded word', 'react -hooks', []],
    ['only stop words', 'the and of', []],
    ['punctuation that is not query syntax', "')(&|!:* <script>", []],
  ])('searches %s', async (_what, q, expected) => {
    const { status, total, items } = await list(`?q=${encodeURIComponent(q)}`);
    expect(status).toBe(200);
    expect(ids(items)).toEqual(idsOf(expected));
    expect(total).toBe(expected.length);
  });

  it('combines search, category and sort', async () => {
    const { items } = await list('?q=design&category=graphic-design');
    expect(ids(items)).toEqual(idsOf(['logo']));
    const byPrice = await list('?q=hopper&sort=price-asc');
    expect(ids(byPrice.items)).toEqual(idsOf(['stats', 'react', 'grading']));
  });

  it.each([
    ['price-asc', ['security', 'css', 'stats', 'email', 'react', 'python', 'logo', 'grading']],
    ['price-desc', ['grading', 'logo', 'python', 'react', 'email', 'stats', 'css', 'security']],
    ['popular', ['stats', 'css', 'grading', 'react', 'security', 'python', 'email', 'logo']],
  ])('sorts by %s', async (sort, expected) => {
    const { items } = await list(`?sort=${sort}`);
    expect(ids(items)).toEqual(idsOf(expected));
  });

  it('pages without gaps or repeats, and past the end is empty', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const { items, total } = await list(`?limit=3&page=${page}`);
      expect(total).toBe(8);
      pages.push(...ids(items));
    }
    expect(pages).toEqual(newestFirst());
    const past = await list('?limit=3&page=4');
    expect(past.items).toEqual([]);
    expect(past.total).toBe(8);
    expect((await list('?limit=100')).items).toHaveLength(8);
  });

  it.each([
    '?limit=101',
    '?limit=0',
    '?page=0',
    '?page=abc',
    '?sort=cheapest',
    '?category=cooking',
    `?q=${'x'.repeat(101)}`,
    '?status=deleted',
  ])('answers 400 to %s', async (query) => {
    const { status, res } = await list(query);
    expect(status).toBe(400);
    expect(res.json().error.code).toBe('validation_error');
  });
});

describe('statuses', () => {
  it('non-admins see accepted classes whatever ?status= says', async () => {
    for (const user of [null, student]) {
      const { items, total } = await list('?status=pending', user);
      expect(total).toBe(8);
      expect(ids(items)).not.toContain(hidden.pending);
    }
  });

  it('admins may filter by status or ask for all of them (but archived); unfiltered they see the public catalogue', async () => {
    for (const status of ['pending', 'rejected', 'archived'] as const) {
      const { items, total } = await list(`?status=${status}`, admin);
      expect(ids(items)).toEqual([hidden[status]]);
      expect(total).toBe(1);
    }
    const all = await list('?status=all&limit=100', admin);
    expect(all.total).toBe(10);
    expect(ids(all.items)).toEqual(expect.arrayContaining([hidden.pending, hidden.rejected]));
    expect(ids(all.items)).not.toContain(hidden.archived);
    expect((await list('?status=pending&q=react', admin)).items).toHaveLength(1);
    const visitors = await list('?limit=100', null);
    const unfiltered = await list('?limit=100', admin);
    expect([unfiltered.total, unfiltered.items]).toEqual([visitors.total, visitors.items]);
    expect(ids(visitors.items)).not.toContain(hidden.pending);
  });
});

/** Every node of an EXPLAIN (format json) plan. */
function planNodes(plan: Record<string, unknown>): Record<string, unknown>[] {
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [plan, ...children.flatMap(planNodes)];
}

describe('query plans at scale', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'the first catalogue page and a search use indexes, not a Seq Scan on classes (PostgreSQL only: skipped on PGlite, whose planner is not the production one)',
    async () => {
      const teacher = await createUser(ctx, 'teacher', { name: 'Bulk Teacher' });
      await ctx.db.execute(sql`
        insert into classes (teacher_id, teacher_name, teacher_email, title, description, price_cents, image_key,
                             category, status, enrollment_count, created_at)
        select ${teacher.id}, 'Bulk Teacher', ${teacher.email}, 'Bulk class ' || g,
               'Generated class number ' || g || case when g % 500 = 0 then ' about quantum computing' else '' end,
               50 + (g * 37) % 100000, ${IMAGE_KEY},
               (array['web-development','digital-marketing','graphic-design','data-science','cyber-security','video-editing'])[1 + g % 6]::category,
               (case when g % 10 < 8 then 'accepted' when g % 10 = 8 then 'pending' else 'rejected' end)::class_status,
               g % 97, now() - make_interval(mins => g)
        from generate_series(1, 5000) g`);
      // VACUUM as autovacuum would: it also moves the bulk insert out of the GIN index's pending
      // list, which the planner otherwise (rightly) prices as a scan of every new row.
      await ctx.db.execute(sql`vacuum analyze classes`);

      const explainQuery = async (query: SQLWrapper) => {
        const result = (await ctx.db.execute(sql`explain (format json) ${query}`)) as unknown as {
          rows: { 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }[];
        };
        return planNodes(result.rows[0]!['QUERY PLAN'][0].Plan);
      };
      const base: CatalogueFilter = { status: 'accepted', sort: 'newest', limit: 12, offset: 0 };
      const explain = (filter: Partial<CatalogueFilter>) =>
        explainQuery(catalogueQuery(ctx.db, { ...base, ...filter }));
      const cases: [string, Partial<CatalogueFilter>, string][] = [
        ['first page', {}, 'classes_status_created_idx'],
        ['category page', { category: 'data-science' }, 'classes_status_category_created_idx'],
        ['cheapest first', { sort: 'price-asc' }, 'classes_status_price_idx'],
        ['most popular', { sort: 'popular' }, 'classes_status_popular_idx'],
      ];
      for (const [name, filter, index] of cases) {
        const nodes = await explain(filter);
        const seqScans = nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'classes');
        expect(seqScans, `${name}: ${JSON.stringify(nodes.map((n) => [n['Node Type'], n['Index Name']]))}`).toEqual([]);
        expect(
          nodes.map((n) => n['Index Name']),
          `${name}: ${JSON.stringify(nodes.map((n) => [n['Node Type'], n['Index Name']]))}`,
        ).toContain(index);
      }

      // A search by relevance walks a tier that most classes match in the order of popularity,
      // reading the index alone (decision 018).
      const walk = await explainQuery(
        searchTierQuery(ctx.db, { ...base, tsquery: 'bulk:*', sort: 'relevance' }, 'primary', 12, 0),
      );
      expect(walk.map((n) => [n['Node Type'], n['Index Name']])).toContainEqual([
        'Index Only Scan',
        'classes_accepted_popular_search_idx',
      ]);

      // The API answers the same search.
      const { items, total } = await list('?q=quantum&limit=100');
      expect(total).toBe(10);
      expect(items.every((i) => String(i.description).includes('quantum'))).toBe(true);

      // Past 1 000 matches a search says "at least 1 000" and still ranks by popularity: 4 000 accepted classes say "bulk".
      const broad = await list('?q=bulk');
      expect(broad.total).toBe(1000);
      expect(broad.res.headers['x-total-count-capped']).toBe('true');
      expect(broad.items.map((i) => i.totalEnrollment)).toEqual([96, 96, 96, 96, 96, 96, 96, 96, 96, 96, 96, 96]);
      expect((await list('?q=quantum')).res.headers['x-total-count-capped']).toBeUndefined();
    },
  );
});
