import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { createTokenService } from '../src/modules/auth/token.ts';
import { findShownCoupon } from '../src/modules/coupons/coupons.repository.ts';
import { insertClassRow } from './class-fixtures.ts';
import { createUser, rawRows, tokenFor, uniqueEmail, type TestContext, type TestUser } from './harness.ts';

/** Anyone who calls the API: a signed-up TestUser (cookie) or a user with a Bearer token. */
export type Caller = { id: string; email: string; headers: Record<string, string> };

/**
 * Test set-up for the enrollment, payment and review suites: classes are inserted directly (the
 * classes API is another feature's), everything a student does goes through the API.
 */

export const CARDS = {
  succeeds: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  requiresAuthentication: '4000 0025 0000 3155',
} as const;

/** A card form that passes every format check; override the number (or any field). */
export function card(
  cardNumber: string = CARDS.succeeds,
  overrides: Partial<{ expMonth: number; expYear: number; cvc: string }> = {},
) {
  return { cardNumber, expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123', ...overrides };
}

export type ClassStatus = 'pending' | 'accepted' | 'rejected' | 'archived' | 'hidden';

export interface TestClass {
  id: string;
  priceCents: number;
  title: string;
  imageKey: string;
  teacherId: string;
}

let classCounter = 0;

/** A class of `teacher`, inserted with its image row; accepted unless told otherwise. */
export async function createClass(
  ctx: Pick<TestContext, 'db'>,
  teacher: Pick<TestUser, 'id' | 'email' | 'name'>,
  options: { priceCents?: number; status?: ClassStatus; title?: string } = {},
): Promise<TestClass> {
  classCounter += 1;
  const imageKey = `${randomBytes(32).toString('hex')}.webp`;
  await ctx.db
    .insert(schema.uploads)
    .values({ key: imageKey, ownerId: teacher.id, contentType: 'image/webp', width: 1200, height: 675, bytes: 1000 });
  const title = options.title ?? `Class ${classCounter}`;
  const priceCents = options.priceCents ?? 1999;
  const id = await insertClassRow(ctx, teacher, {
    title,
    description: `Description of ${title}`,
    priceCents,
    imageKey,
    category: 'data-science',
    status: options.status ?? 'accepted',
  });
  return { id, priceCents, title, imageKey, teacherId: teacher.id };
}

export async function classCounters(ctx: Pick<TestContext, 'db'>, classId: string) {
  const [row] = await ctx.db
    .select({
      enrollmentCount: schema.classes.enrollmentCount,
      ratingSum: schema.classes.ratingSum,
      reviewCount: schema.classes.reviewCount,
    })
    .from(schema.classes)
    .where(eq(schema.classes.id, classId));
  return row!;
}

type Inject = TestContext['app']['inject'];
type Response = Awaited<ReturnType<Inject>>;

export function enroll(ctx: Pick<TestContext, 'app'>, user: Caller, classId: string): Promise<Response> {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/enrolled',
    headers: user.headers,
    payload: { enrollId: classId },
  });
}

export async function enrolOk(ctx: Pick<TestContext, 'app'>, user: Caller, classId: string): Promise<string> {
  const res = await enroll(ctx, user, classId);
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`enroll failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { insertedId: string }).insertedId;
}

export function createIntent(
  ctx: Pick<TestContext, 'app'>,
  user: Caller,
  payload: Record<string, unknown> = {},
): Promise<Response> {
  return ctx.app.inject({ method: 'POST', url: '/api/create-payment-intent', headers: user.headers, payload });
}

export interface IntentAnswer {
  clientSecret: string;
  amount: number;
  currency: string;
  gateway: 'test' | 'stripe';
  publishableKey: string | null;
  cartIds: string[];
  subtotalCents: number;
  discountCents: number;
  coupon: { code: string; kind: 'percent' | 'fixed'; value: number } | null;
  lines: { _id: string; classId: string; listCents: number; discountCents: number; paidCents: number }[];
}

export async function createIntentOk(
  ctx: Pick<TestContext, 'app'>,
  user: Caller,
  payload: Record<string, unknown> = {},
): Promise<IntentAnswer> {
  const res = await createIntent(ctx, user, payload);
  if (res.statusCode !== 200) throw new Error(`create intent failed: ${res.statusCode} ${res.body}`);
  return res.json() as IntentAnswer;
}

export function confirm(
  ctx: Pick<TestContext, 'app'>,
  user: Caller,
  clientSecret: string,
  form = card(),
): Promise<Response> {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/test-gateway/confirm',
    headers: user.headers,
    payload: { clientSecret, ...form },
  });
}

export function recordPayment(
  ctx: Pick<TestContext, 'app'>,
  user: Caller,
  body: { transactionId: string; cartIds: string[] } & Record<string, unknown>,
): Promise<Response> {
  return ctx.app.inject({ method: 'POST', url: '/api/payments', headers: user.headers, payload: body });
}

/** enroll → intent (with a coupon code, when given) → confirm 4242 → POST /api/payments: the happy path of spec §4. */
export async function buy(
  ctx: Pick<TestContext, 'app'>,
  user: Caller,
  classIds: string[],
  options: { couponCode?: string } = {},
) {
  for (const id of classIds) await enrolOk(ctx, user, id);
  const intent = await createIntentOk(ctx, user, options.couponCode ? { couponCode: options.couponCode } : {});
  const confirmed = await confirm(ctx, user, intent.clientSecret);
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.statusCode} ${confirmed.body}`);
  const transactionId = (confirmed.json() as { transactionId: string }).transactionId;
  const paid = await recordPayment(ctx, user, { transactionId, cartIds: intent.cartIds });
  if (paid.statusCode !== 200 && paid.statusCode !== 201)
    throw new Error(`payment failed: ${paid.statusCode} ${paid.body}`);
  return {
    intent,
    transactionId,
    paymentId: (paid.json() as { paymentResult: { insertedId: string } }).paymentResult.insertedId,
  };
}

/**
 * A signed-up user who then calls with a Bearer token from POST /api/jwt, as the web app does
 * (spec §7). Much cheaper per request than the session cookie on PGlite, so the busy suites use it.
 */
export async function createCaller(
  ctx: Pick<TestContext, 'app' | 'db'>,
  role: Parameters<typeof createUser>[1] = 'student',
  overrides: Parameters<typeof createUser>[2] = {},
): Promise<Caller & { name: string }> {
  const user = await createUser(ctx, role, overrides);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    headers: { authorization: `Bearer ${await tokenFor(ctx, user)}` },
  };
}

/**
 * The uses admins and teachers are shown, and the coupon's redemption rows. The counter column is
 * kept for coupons with a limit only (decision 019 §4): there it equals the rows too.
 */
export async function couponUsesOf(ctx: Pick<TestContext, 'db'>, couponId: string) {
  const [row] = await rawRows<{ counter: number; limited: boolean; redemptions: number }>(
    ctx.db,
    sql`select uses as counter, max_uses is not null as limited,
          (select count(*)::int from coupon_redemptions r where r.coupon_id = c.id) as redemptions
        from coupons c where c.id = ${couponId}`,
  );
  if (row?.limited) expect(row.counter).toBe(row.redemptions);
  const shown = await findShownCoupon(ctx.db, couponId);
  return { uses: shown?.uses, redemptions: row?.redemptions };
}

/** Paging a list must refuse, each with the field it names (page ≥ 1, 1 ≤ limit ≤ 100, whole numbers). */
const BAD_PAGING = [
  ['?page=0', 'page'],
  ['?page=-1', 'page'],
  ['?page=abc', 'page'],
  ['?page=1.5', 'page'],
  ['?limit=0', 'limit'],
  ['?limit=101', 'limit'],
  ['?limit=ten', 'limit'],
] as const;

/** Asks a paged list with each bad paging query (`list(query)`) and expects a 400 naming the field. */
export async function expectBadPagingRefused(
  list: (query: string) => Promise<{ statusCode: number; json(): unknown }>,
): Promise<void> {
  for (const [query, field] of BAD_PAGING) {
    const res = await list(query);
    expect(res.statusCode, query).toBe(400);
    const { error } = res.json() as { error: { code: string; fields?: Record<string, string> } };
    expect(error.code).toBe('validation_error');
    expect(Object.keys(error.fields ?? {}), query).toContain(field);
  }
}

/** Whom the commerce permission matrices call as, in this order: anonymous and the refused roles first. */
export const MATRIX_ROLES = ['anonymous', 'student', 'teacher', 'otherTeacher', 'admin'] as const;
export type MatrixRole = (typeof MATRIX_ROLES)[number];

/** One row of a permission matrix: an endpoint and the status each role gets from it. */
export interface MatrixEndpoint {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  url: () => string;
  body?: () => Record<string, unknown>;
  expected: Record<MatrixRole, number>;
}

const ERROR_CODE_OF: Record<number, string> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
};

/**
 * A test per endpoint: each role calls it and gets the expected status, a refusal with its error
 * code. An allowed call may change state, so a student allowed in is asked last.
 */
export function itAnswersEachRole(
  endpoints: MatrixEndpoint[],
  options: { ctx: () => Pick<TestContext, 'app'>; callerOf: (role: Exclude<MatrixRole, 'anonymous'>) => Caller },
): void {
  for (const e of endpoints) {
    it(`${e.name}: ${MATRIX_ROLES.map((r) => `${r} → ${e.expected[r]}`).join(', ')}`, async () => {
      const order =
        e.expected.student < 300 ? [...MATRIX_ROLES.filter((r) => r !== 'student'), 'student' as const] : MATRIX_ROLES;
      for (const role of order) {
        const payload = e.body?.();
        const res = await options.ctx().app.inject({
          method: e.method,
          url: e.url(),
          headers: role === 'anonymous' ? {} : options.callerOf(role).headers,
          ...(payload ? { payload } : {}),
        });
        expect({ role, status: res.statusCode }).toEqual({ role, status: e.expected[role] });
        if (res.statusCode >= 400) expect(res.json().error.code).toBe(ERROR_CODE_OF[res.statusCode]);
      }
    });
  }
}

/** Test-app settings for suites that sign many users up quickly. */
export const FAST_SIGNUP_ENV = { RATE_LIMIT_AUTH_PER_MINUTE: '100000' } as const;

/** A student inserted by `insertStudents`, with the session its tokens name. */
export type InsertedStudent = Caller & { sessionId: string };

/**
 * Students as the web app authenticates them: a Bearer token from the real token service
 * (spec §7 "secured calls send the stored token"). Their accounts are inserted directly — hundreds
 * of password sign-ups would spend most of a run hashing passwords, which the auth suite covers
 * already (and verifying their addresses, which the accounts suite covers). The app must be built
 * with the same `authSecret`; `now` is the app's clock, and the sessions last a year of it.
 */
export async function insertStudents(
  ctx: Pick<TestContext, 'db'>,
  n: number,
  authSecret: string,
  now: () => Date = () => new Date(),
): Promise<InsertedStudent[]> {
  const accounts = Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    name: `Student ${i + 1}`,
    email: uniqueEmail('shopper'),
    // Paying needs a verified address; the accounts suite covers verifying one.
    emailVerified: true,
  }));
  await ctx.db.insert(schema.users).values(accounts);
  // A token lives only as long as the session it names (decision 009): one session per student.
  const sessions = accounts.map((row) => ({
    id: randomUUID(),
    token: randomUUID(),
    userId: row.id,
    expiresAt: new Date(now().getTime() + 365 * 24 * 60 * 60 * 1000),
  }));
  await ctx.db.insert(schema.sessions).values(sessions);
  const students = accounts.map((row, i) => ({
    id: row.id,
    email: row.email,
    sessionId: sessions[i]!.id,
    headers: {},
  }));
  await refreshTokens(students, authSecret, now);
  return students;
}

/** New tokens at the app's `now` for students whose clock moved past their tokens' hour. */
export async function refreshTokens(students: InsertedStudent[], authSecret: string, now: () => Date): Promise<void> {
  const tokens = createTokenService(authSecret, now);
  await Promise.all(
    students.map(async (student) => {
      student.headers = { authorization: `Bearer ${await tokens.issue(student, student.sessionId)}` };
    }),
  );
}

/** Runs `run` over `items`, `size` at a time (concurrent within a batch), in order of the batches. */
export async function inBatches<T, R>(
  items: T[],
  size: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    results.push(...(await Promise.all(items.slice(i, i + size).map((item, j) => run(item, i + j)))));
  }
  return results;
}
