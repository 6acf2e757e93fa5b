import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Category, ClassSort, ClassStatus } from '@skillhive/shared/rules/constants';
import type { Db } from '../../db/client.ts';
import { classes, searchTerms } from '../../db/schema/classes.ts';
import { fittingSections, scheduleCondition, type ScheduleMatch } from '../sections/sections.public.ts';
import { classColumns, type ClassRow, descNullsLast } from './classes.repository.ts';

export interface CatalogueFilter {
  /** One status, or null for every status but archived (admins' unfiltered view). */
  status: ClassStatus | null;
  category?: Category | undefined;
  /**
   * A `to_tsquery` expression built by the service from the visitor's words (decision 018), matched
   * against the weighted vector of title, teacher name and description.
   */
  tsquery?: string | undefined;
  minPriceCents?: number | undefined;
  maxPriceCents?: number | undefined;
  /** The lowest average rating (1–5); classes without reviews are left out when set. */
  minRating?: number | undefined;
  /** The schedule filter (decision 053) and the instant "upcoming" is measured from. */
  schedule?: { match: ScheduleMatch; now: Date } | undefined;
  /** Only these classes (the few a schedule filter fits, found first by scheduleFitsAtMost). */
  classIds?: string[] | undefined;
  sort: ClassSort;
  limit: number;
  offset: number;
}

const tsqueryOf = (expression: string) => sql`to_tsquery('english', ${expression})`;

function catalogueWhere(filter: CatalogueFilter, tier?: SearchTier): SQL | undefined {
  return and(
    filter.status ? eq(classes.status, filter.status) : ne(classes.status, 'archived'),
    filter.category ? eq(classes.category, filter.category) : undefined,
    // The first tier's own vector is a part of the whole one: the whole is checked only for an
    // excluded word (`-word`, which may sit in the description).
    filter.tsquery && (tier !== 'primary' || filter.tsquery.includes('!'))
      ? sql`${classes.search} @@ ${tsqueryOf(filter.tsquery)}`
      : undefined,
    filter.tsquery && tier ? tierCondition(filter.tsquery, tier) : undefined,
    filter.minPriceCents !== undefined ? sql`${classes.priceCents} >= ${filter.minPriceCents}` : undefined,
    filter.maxPriceCents !== undefined ? sql`${classes.priceCents} <= ${filter.maxPriceCents}` : undefined,
    // The average is rating_sum / review_count; compared without a division (and without unrated classes).
    filter.minRating !== undefined
      ? sql`${classes.reviewCount} > 0 and ${classes.ratingSum} >= ${filter.minRating}::numeric * ${classes.reviewCount}`
      : undefined,
    filter.classIds ? inArray(classes.id, filter.classIds) : undefined,
    filter.schedule ? scheduleCondition(classes.id, filter.schedule.match, filter.schedule.now) : undefined,
  );
}

/**
 * Relevance (decision 018, "Tiers"): the classes whose title and teacher's name hold every word
 * searched come first, then those found only through their description; within a tier, the more
 * popular first (enrollment_count desc, id desc), an order an index can serve (searchPage).
 */
export const SEARCH_TIERS = ['primary', 'description'] as const;
export type SearchTier = (typeof SEARCH_TIERS)[number];

function tierCondition(tsquery: string, tier: SearchTier): SQL {
  const primary = sql`${classes.searchPrimary} @@ ${tsqueryOf(tsquery)}`;
  return tier === 'primary' ? primary : sql`not (${primary})`;
}

/**
 * Each order ends with the id so pages are stable, and matches one of the composite indexes
 * exactly, nulls placement included (the migration builds the descending ones NULLS LAST, and
 * PostgreSQL only reads an index for an ORDER BY that matches it that way too):
 * (status, created_at desc nulls last, id desc nulls last), the same within a category,
 * (status, price_cents, id) read forwards or backwards, (status, enrollment_count desc nulls last, id desc nulls last).
 * A search by relevance reads its tiers through the last one instead (searchPage).
 */
function orderOf(filter: CatalogueFilter): SQL[] {
  switch (filter.sort) {
    // Without a query, relevance means nothing: newest first. With one, searchPage orders instead.
    case 'relevance':
    case 'newest':
      return [descNullsLast(classes.createdAt), descNullsLast(classes.id)];
    case 'price-asc':
      return [asc(classes.priceCents), asc(classes.id)];
    case 'price-desc':
      return [desc(classes.priceCents), desc(classes.id)];
    case 'popular':
      return [descNullsLast(classes.enrollmentCount), descNullsLast(classes.id)];
  }
}

/**
 * The page query of the catalogue (exported so a test can EXPLAIN exactly what runs). A late row
 * lookup: the page's ids come from the ordering index alone (an index-only scan, so a deep OFFSET
 * skips index entries, not table rows), then only those rows are read. Plain OFFSET read and
 * sorted every skipped row: page 500 cost ~35 ms at 10 000 classes (bench/, BENCHMARKS.md).
 */
export function catalogueQuery(db: Db, filter: CatalogueFilter) {
  const order = orderOf(filter);
  const pageIds = db
    .select({ id: classes.id })
    .from(classes)
    .where(catalogueWhere(filter))
    .orderBy(...order)
    .limit(filter.limit)
    .offset(filter.offset);
  return db
    .select(classColumns)
    .from(classes)
    .where(inArray(classes.id, pageIds))
    .orderBy(...order);
}

/**
 * One tier of a search walked in the popularity order (exported so a test can EXPLAIN exactly
 * what runs): an index in that order is read until the page is found, about (offset + limit) ×
 * classes / matches entries, which is few when many classes match. For the first tier of accepted
 * classes that index also holds the vector matched (classes_accepted_popular_search_idx, migration
 * 0012), so the walk reads no table row: only the ids of the page.
 */
export function searchTierQuery(db: Db, filter: CatalogueFilter, tier: SearchTier, limit: number, offset: number) {
  return db
    .select({ id: classes.id })
    .from(classes)
    .where(catalogueWhere(filter, tier))
    .orderBy(descNullsLast(classes.enrollmentCount), descNullsLast(classes.id))
    .limit(limit)
    .offset(offset);
}

/**
 * What an index entry passed by a walk costs against a table row read through the GIN bitmap:
 * the first tier's walk reads its index alone (measured 0.37 µs an entry against ≈ 3 µs a row);
 * the description tier's walk reads the table (about the same cost as the bitmap's rows).
 */
const WALK_COST: Record<SearchTier, number> = { primary: 1 / 8, description: 1 };

/**
 * How many of a tier's matches a search reads and orders itself before it walks the popularity
 * order instead: at least the rows it must skip and show, and about √(those × classes × the
 * walk's relative cost), where both ways cost about the same (a walk passes those × classes /
 * matches entries; the read, the matches).
 */
export function tierReadLimit(tier: SearchTier, wanted: number, classesEstimate: number): number {
  return Math.max(wanted, Math.ceil(Math.sqrt(wanted * classesEstimate * WALK_COST[tier])));
}

/**
 * One tier's page when the tier has at most `readLimit` matches: they are found through the GIN
 * index, read and ordered in one statement, which also says how many there are. Null when there
 * are more: the caller walks the tier instead.
 */
async function smallTierPage(
  db: Db,
  filter: CatalogueFilter,
  tier: SearchTier,
  limit: number,
  offset: number,
  readLimit: number,
): Promise<{ ids: string[]; size: number } | null> {
  const result = (await db.execute(sql`
    with matches as (
      select ${classes.id} as id, ${classes.enrollmentCount} as popularity from ${classes}
      where ${catalogueWhere(filter, tier)}
      limit ${readLimit + 1}
    )
    select (select count(*) from matches)::int as size, (
      select coalesce(array_agg(page.id::text order by page.popularity desc nulls last, page.id desc nulls last), '{}')
      from (
        select id, popularity from matches order by popularity desc nulls last, id desc nulls last
        limit ${limit} offset ${offset}
      ) as page
    ) as ids
  `)) as unknown as { rows: { size: number; ids: string[] }[] };
  const row = result.rows[0]!;
  return row.size > readLimit ? null : { ids: row.ids, size: row.size };
}

/**
 * The first read of a search: up to `cap` + 1 of all its matches, through the GIN index of
 * accepted classes, each with its tier. With `cap` or fewer, that is every match: the page is
 * ordered from them and `matches` is their number. With more, `ids` is null and `matches` is
 * `cap` + 1 (the total reads "1,000+"): the caller reads the tiers instead.
 */
async function allMatchesPage(
  db: Db,
  filter: CatalogueFilter,
  cap: number,
): Promise<{ ids: string[] | null; matches: number; firstTier: number }> {
  const first = sql`(${classes.searchPrimary} @@ ${tsqueryOf(filter.tsquery!)})`;
  const result = (await db.execute(sql`
    with matches as (
      select ${classes.id} as id, ${classes.enrollmentCount} as popularity, ${first} as first from ${classes}
      where ${catalogueWhere(filter)}
      limit ${cap + 1}
    )
    select (select count(*) from matches)::int as size,
      (select count(*) from matches where first)::int as first_tier, (
      select coalesce(
        array_agg(page.id::text order by page.first desc, page.popularity desc nulls last, page.id desc nulls last),
        '{}'
      )
      from (
        select id, popularity, first from matches
        order by first desc, popularity desc nulls last, id desc nulls last
        limit ${filter.limit} offset ${filter.offset}
      ) as page
    ) as ids
  `)) as unknown as { rows: { size: number; first_tier: number; ids: string[] }[] };
  const row = result.rows[0]!;
  return { ids: row.size > cap ? null : row.ids, matches: row.size, firstTier: row.first_tier };
}

/** About how many classes there are (the planner's statistics), read at most once a minute per database. */
const classesEstimates = new WeakMap<Db, { value: number; at: number }>();
async function estimateClasses(db: Db): Promise<number> {
  const cached = classesEstimates.get(db);
  if (cached && Date.now() - cached.at < 60_000) return cached.value;
  const result = (await db.execute(
    sql`select greatest(reltuples, 0)::float8 as n from pg_class where oid = 'classes'::regclass`,
  )) as unknown as { rows: { n: number }[] };
  const value = Number(result.rows[0]?.n ?? 0);
  classesEstimates.set(db, { value, at: Date.now() });
  return value;
}

/**
 * A page of a search ranked by relevance (decision 018, "Tiers"). The first read counts the
 * matches up to `cap` and, when that is all of them, orders the page from them. A search with more
 * reads its tiers: the first, then the next when the page reaches past the first one's end. A small
 * tier is read whole and ordered; a large one is walked in the popularity order. Either way a page
 * reads about √(page end × classes) rows at most, however many classes match. `matches` is the
 * number of matches, or `cap` + 1 when there are more.
 */
export async function searchPage(
  db: Db,
  filter: CatalogueFilter,
  cap: number,
): Promise<{ rows: ClassRow[]; matches: number }> {
  const classesEstimate = await estimateClasses(db);
  const { ids, walk, matches } = await db.transaction(async (tx) => {
    await tx.execute(BITMAP_SCANS_ONLY);
    const all = await allMatchesPage(tx, filter, cap);
    if (all.ids) return { ids: all.ids, walk: null, matches: all.matches };
    return { ...(await readTiers(tx, filter, classesEstimate, all.firstTier)), matches: all.matches };
  });
  // The walk of a large tier, after the transaction: any scan may serve it, and it ends the page.
  if (walk) ids.push(...(await searchTierQuery(db, filter, walk.tier, walk.limit, walk.offset)).map((r) => r.id));
  if (ids.length === 0) return { rows: [], matches };
  const found = await db.select(classColumns).from(classes).where(inArray(classes.id, ids));
  const byId = new Map(found.map((row) => [row.id, row]));
  return { rows: ids.flatMap((id) => byId.get(id) ?? []), matches };
}

/**
 * Reads the tiers in order, each whole while it is small; stops at the first large one, which is
 * then walked (its offset and the rows still wanted returned as `walk`). `firstTierAtLeast`: the
 * first read already saw that many first-tier matches; past the read limit, the tier is walked
 * without reading it.
 */
async function readTiers(
  tx: Db,
  filter: CatalogueFilter,
  classesEstimate: number,
  firstTierAtLeast: number,
): Promise<{ ids: string[]; walk: { tier: SearchTier; limit: number; offset: number } | null }> {
  const ids: string[] = [];
  let offset = filter.offset;
  for (const tier of SEARCH_TIERS) {
    const limit = filter.limit - ids.length;
    const readLimit = tierReadLimit(tier, offset + limit, classesEstimate);
    if (tier === 'primary' && firstTierAtLeast > readLimit) return { ids, walk: { tier, limit, offset } };
    const small = await smallTierPage(tx, filter, tier, limit, offset, readLimit);
    // More than readLimit ≥ offset + limit matches: a walk fills the page.
    if (!small) return { ids, walk: { tier, limit, offset } };
    ids.push(...small.ids);
    offset = Math.max(0, offset - small.size);
    if (ids.length >= filter.limit) break;
  }
  return { ids, walk: null };
}

/**
 * Reading "at most N" matches tempts the planner into a sequential scan (or a walk of another
 * index) that stops at the Nth match: cheap when most rows match, a scan of most of the table when
 * few do, and its estimate of a prefix's matches is rough (measured: 49 000 rows read for 1 096
 * matches, 40 ms). A GIN bitmap finds every match first and then reads at most N rows, whatever
 * the estimate. So those reads are planned with the other scans off, in their own transaction only
 * (set_config(..., true) is SET LOCAL).
 */
const BITMAP_SCANS_ONLY = sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)`;

/** How many classes match the catalogue filter (X-Total-Count). */
export async function countCatalogue(db: Db, filter: CatalogueFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(classes).where(catalogueWhere(filter));
  return row?.n ?? 0;
}

/**
 * How many classes match, counted no further than `cap` (a search's total in another order than
 * relevance: "1,000+ classes" reads 1 001 rows, not all 90 000 that a common word matches).
 */
export async function countAtMost(db: Db, filter: CatalogueFilter, cap: number): Promise<number> {
  const matches = db
    .select({ one: sql`1`.as('one') })
    .from(classes)
    .where(catalogueWhere(filter))
    .limit(cap)
    .as('matches');
  const [row] = await db.select({ n: count() }).from(matches);
  return row?.n ?? 0;
}

/**
 * The classes a schedule filter fits, at most `cap` of them, in no order (decision 053). The
 * fitting sections drive: read through the index of their first start slot (a CTE, so the
 * planner cannot drive from the classes instead), each looked up in its class (the other filters)
 * by primary key, through a cursor only until `cap` distinct classes are in hand. A class with
 * several fitting sections comes once per section; a hash join or a de-duplicating plan would
 * read every fitting section first, tens of thousands for a wide filter. Answers `cap` ids when
 * at least that many fit: the caller then walks the classes' order (catalogueQuery), which finds
 * a page quickly when that many fit.
 */
export async function scheduleFitsAtMost(db: Db, filter: CatalogueFilter, cap: number): Promise<string[]> {
  const { match, now } = filter.schedule!;
  const others = catalogueWhere({ ...filter, schedule: undefined });
  return db.transaction(async (tx) => {
    await tx.execute(SECTION_INDEX_READS_ONLY);
    await tx.execute(sql`
      declare fitting_classes no scroll cursor for
      with fit as materialized ${fittingSections(match, now, filter.status)}
      select ${classes.id}::text as id from fit
      join ${classes} on ${classes.id} = fit.class_id
      where ${others}
    `);
    // Each fetch asks for about as many rows as classes are still missing: in the slot index's
    // order a class's other sections (read again) are few.
    const ids = new Set<string>();
    for (;;) {
      const size = Math.max(cap - ids.size, MIN_FETCH);
      const batch = (await tx.execute(sql`fetch ${sql.raw(String(size))} from fitting_classes`)) as unknown as {
        rows: { id: string }[];
      };
      for (const row of batch.rows) ids.add(row.id);
      if (ids.size >= cap || batch.rows.length < size) return [...ids].slice(0, cap);
    }
  });
}

/** The smallest fetch from the fitting classes' cursor (a round trip each). */
const MIN_FETCH = 64;

/**
 * How the fitting sections are read (SET LOCAL, in their own transaction): nested loops only and no
 * parallel workers, so that the cursor stops the read after the rows it needs (starting workers
 * costs more than such a read on two cores); no sequential scan and no index-only scan, so that
 * the read is the first-slot index's and not a whole scan of the table or of the classes' covering
 * index (`sections_class_next_start_idx`, led by the class id), which estimates for a start date
 * can make look cheap.
 */
const SECTION_INDEX_READS_ONLY = sql`select set_config('enable_hashjoin', 'off', true),
  set_config('enable_mergejoin', 'off', true), set_config('max_parallel_workers_per_gather', '0', true),
  set_config('enable_indexonlyscan', 'off', true), set_config('enable_seqscan', 'off', true)`;

/** How close a known word must be to a misspelled one to be tried instead (pg_trgm similarity, 0–1). */
export const CORRECTION_SIMILARITY_MIN = 0.25;

/**
 * For each word that begins no known word (a misspelling, not a prefix being typed), the known
 * words nearest to it by trigram similarity (pg_trgm; decision 018), at most `perWord` each,
 * nearest first: the GiST index hands them over nearest first (`<->`), so only `perWord` are read.
 * Words are letters and digits only (the service splits them so), so LIKE sees no pattern in them.
 */
export async function findCorrections(db: Db, words: string[], perWord: number): Promise<Map<string, string[]>> {
  const corrections = new Map<string, string[]>();
  if (words.length === 0) return corrections;
  const list = sql.join(
    words.map((word) => sql`${word}`),
    sql`, `,
  );
  const rows = (await db.execute(sql`
    select w.word, t.term
    from unnest(array[${list}]::text[]) as w(word)
    cross join lateral (
      select ${searchTerms.term} as term, similarity(${searchTerms.term}, w.word) as score from ${searchTerms}
      order by ${searchTerms.term} <-> w.word
      limit ${perWord}
    ) as t
    where t.score >= ${CORRECTION_SIMILARITY_MIN}
      and not exists (select 1 from ${searchTerms} as known where known.term like w.word || '%')
      -- A stop word ("the") is no misspelling: text search ignores it.
      and to_tsvector('english', w.word) <> ''::tsvector
    order by w.word, t.score desc, t.term
  `)) as unknown as { rows: { word: string; term: string }[] };
  for (const { word, term } of rows.rows) corrections.set(word, [...(corrections.get(word) ?? []), term]);
  return corrections;
}

/** Suggestions order at most this many matches themselves; a search with more reads its tiers. */
const SUGGESTION_MATCHES_READ = 1_000;

/** The accepted classes a search ranks first, for the suggestions under the search box. */
export async function suggestClasses(db: Db, tsquery: string, limit: number): Promise<ClassRow[]> {
  const filter: CatalogueFilter = { status: 'accepted', tsquery, sort: 'relevance', limit, offset: 0 };
  return (await searchPage(db, filter, SUGGESTION_MATCHES_READ)).rows;
}
