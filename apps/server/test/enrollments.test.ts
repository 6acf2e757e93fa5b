import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { schema } from '../src/db/client.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
import {
  CARDS,
  FAST_SIGNUP_ENV,
  buy,
  card,
  classCounters,
  confirm,
  createClass,
  createIntentOk,
  enroll,
  enrolOk,
  type TestClass,
} from './commerce-fixtures.ts';

let ctx: TestContext;
let teacher: TestUser;
let student: TestUser;
let other: TestUser;
let admin: TestUser;

beforeAll(async () => {
  ctx = await createTestApp(FAST_SIGNUP_ENV);
  [teacher, student, other, admin] = await Promise.all([
    createUser(ctx, 'teacher', { name: 'Grace Teacher' }),
    createUser(ctx, 'student'),
    createUser(ctx, 'student'),
    createUser(ctx, 'admin'),
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

async function enrollmentsOf(user: TestUser) {
  return ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.studentId, user.id));
}

describe('POST /api/enrolled', () => {
  it('copies the class into a pending enrollment, ignoring everything in the body but enrollId', async () => {
    const cls = await createClass(ctx, teacher, { priceCents: 2550, title: 'Statistics' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/enrolled',
      headers: student.headers,
      payload: {
        enrollId: cls.id,
        email: other.email,
        name: 'Fake',
        title: 'Fake',
        image: 'x',
        price: 0.01,
        description: 'Fake',
        status: 'paid',
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ insertedId: expect.any(String), created: true, status: 'pending' });
    const [row] = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.id, body.insertedId));
    expect(row).toMatchObject({
      classId: cls.id,
      studentId: student.id,
      studentEmail: student.email,
      teacherName: 'Grace Teacher',
      title: 'Statistics',
      description: 'Description of Statistics',
      imageKey: cls.imageKey,
      priceCents: 2550,
      status: 'pending',
      paymentId: null,
    });
    // A cart line is no student yet: the public count waits for the payment (decision 003).
    expect((await classCounters(ctx, cls.id)).enrollmentCount).toBe(0);
  });

  it('answers the existing id for a second call and creates nothing', async () => {
    const cls = await createClass(ctx, teacher);
    const first = await enroll(ctx, student, cls.id);
    const second = await enroll(ctx, student, cls.id);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ insertedId: first.json().insertedId, created: false, status: 'pending' });
    const rows = await ctx.db
      .select()
      .from(schema.enrollments)
      .where(and(eq(schema.enrollments.studentId, student.id), eq(schema.enrollments.classId, cls.id)));
    expect(rows).toHaveLength(1);
    expect((await classCounters(ctx, cls.id)).enrollmentCount).toBe(0);
  });

  it('keeps concurrent double clicks to one enrollment', async () => {
    const cls = await createClass(ctx, teacher);
    const results = await Promise.all([
      enroll(ctx, other, cls.id),
      enroll(ctx, other, cls.id),
      enroll(ctx, other, cls.id),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(results.map((r) => r.json().insertedId)).size).toBe(1);
    expect((await classCounters(ctx, cls.id)).enrollmentCount).toBe(0);
  });

  it('counts a student on the public page once paid, never a cart line (decision 003)', async () => {
    const cls = await createClass(ctx, teacher);
    const publicCount = async () =>
      (await ctx.app.inject({ method: 'GET', url: `/api/classes/${cls.id}` })).json().totalEnrollment as number;
    // Carts anyone can fill do not inflate "n students enrolled".
    await enrolOk(ctx, student, cls.id);
    await enrolOk(ctx, other, cls.id);
    expect(await publicCount()).toBe(0);
    const buyer = await createUser(ctx, 'student');
    await buy(ctx, buyer, [cls.id]);
    expect(await publicCount()).toBe(1);
    expect((await classCounters(ctx, cls.id)).enrollmentCount).toBe(1);
  });

  it('refuses pending, rejected and archived classes with 409', async () => {
    for (const status of ['pending', 'rejected', 'archived'] as const) {
      const cls = await createClass(ctx, teacher, { status });
      const res = await enroll(ctx, student, cls.id);
      expect(res.statusCode, status).toBe(409);
      expect(res.json().error).toEqual({ code: 'conflict', message: 'This class is not open for enrollment' });
      expect((await classCounters(ctx, cls.id)).enrollmentCount).toBe(0);
    }
  });

  it('refuses the teacher’s own class with 409, a business refusal (DESIGN §3)', async () => {
    const cls = await createClass(ctx, teacher);
    const res = await enroll(ctx, teacher, cls.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('You cannot enroll in your own class');
    expect(await enrollmentsOf(teacher)).toHaveLength(0);
  });

  it('answers 404 for unknown classes and ids that are not ids, 400 without enrollId', async () => {
    expect((await enroll(ctx, student, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await enroll(ctx, student, 'not-a-uuid')).statusCode).toBe(404);
    expect((await enroll(ctx, student, "1' or '1'='1")).statusCode).toBe(404);
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/api/enrolled',
      headers: student.headers,
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('enrollId is required');
  });

  it('requires a signed-in caller', async () => {
    const cls = await createClass(ctx, teacher);
    const res = await ctx.app.inject({ method: 'POST', url: '/api/enrolled', payload: { enrollId: cls.id } });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/enrolled/:email', () => {
  let buyer: TestUser;
  let paidClass: TestClass;
  let cartClass: TestClass;

  beforeAll(async () => {
    buyer = await createUser(ctx, 'student');
    paidClass = await createClass(ctx, teacher, { priceCents: 1000, title: 'Paid one' });
    cartClass = await createClass(ctx, teacher, { priceCents: 1250, title: 'In the cart' });
    await buy(ctx, buyer, [paidClass.id]);
    await enrolOk(ctx, buyer, cartClass.id);
  });

  it('lists the caller’s enrollments newest first with image URLs and decimal prices', async () => {
    const res = await ctx.app.inject({
      url: `/api/enrolled/${encodeURIComponent(buyer.email)}`,
      headers: buyer.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    const list = res.json();
    expect(list.map((e: { title: string }) => e.title)).toEqual(['In the cart', 'Paid one']);
    expect(list[0]).toEqual({
      _id: expect.any(String),
      enrollId: cartClass.id,
      email: buyer.email,
      name: 'Grace Teacher',
      title: 'In the cart',
      image: ctx.storage.publicUrl(cartClass.imageKey),
      price: 12.5,
      description: 'Description of In the cart',
      status: 'pending',
      createdAt: expect.any(String),
      paidAt: null,
      available: true,
    });
    expect(list[1]).toMatchObject({ status: 'paid', price: 10, paidAt: expect.any(String) });
  });

  it('filters by status and paginates', async () => {
    const url = `/api/enrolled/${encodeURIComponent(buyer.email)}`;
    const cart = await ctx.app.inject({ url: `${url}?status=pending`, headers: buyer.headers });
    expect(cart.json().map((e: { enrollId: string }) => e.enrollId)).toEqual([cartClass.id]);
    expect(cart.headers['x-total-count']).toBe('1');
    const page2 = await ctx.app.inject({ url: `${url}?page=2&limit=1`, headers: buyer.headers });
    expect(page2.json().map((e: { enrollId: string }) => e.enrollId)).toEqual([paidClass.id]);
    expect(page2.headers['x-total-count']).toBe('2');
    expect((await ctx.app.inject({ url: `${url}?status=nope`, headers: buyer.headers })).statusCode).toBe(400);
  });

  it('lets an admin read anyone’s list, and answers 404 for an unknown e-mail', async () => {
    const res = await ctx.app.inject({
      url: `/api/enrolled/${encodeURIComponent(buyer.email.toUpperCase())}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(2);
    expect(
      (await ctx.app.inject({ url: '/api/enrolled/nobody@example.test', headers: admin.headers })).statusCode,
    ).toBe(404);
  });
});

describe('DELETE /api/enrolled/:id', () => {
  it('removes a pending enrollment of the caller; the class count never saw it', async () => {
    const cls = await createClass(ctx, teacher);
    const id = await enrolOk(ctx, student, cls.id);
    expect((await classCounters(ctx, cls.id)).enrollmentCount).toBe(0);
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/enrolled/${id}`, headers: student.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deletedCount: 1 });
    expect(await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.id, id))).toHaveLength(0);
    expect((await classCounters(ctx, cls.id)).enrollmentCount).toBe(0);
    // Gone: a second delete is a 404; enrolling again makes a new record.
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/api/enrolled/${id}`, headers: student.headers })).statusCode,
    ).toBe(404);
    expect((await enroll(ctx, student, cls.id)).statusCode).toBe(201);
  });

  it('refuses a paid enrollment with 409', async () => {
    const buyer = await createUser(ctx, 'student');
    const cls = await createClass(ctx, teacher);
    await buy(ctx, buyer, [cls.id]);
    const [row] = await enrollmentsOf(buyer);
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/enrolled/${row!.id}`, headers: buyer.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('A paid enrollment cannot be removed');
    expect((await classCounters(ctx, cls.id)).enrollmentCount).toBe(1);
  });

  it('answers 404 for ids that are not ids', async () => {
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: '/api/enrolled/abc', headers: student.headers })).statusCode,
    ).toBe(404);
  });
});

/**
 * Who may call what (DESIGN §1.1, §6): every endpoint of enrollments, payments and reviews,
 * for an anonymous caller, the student who owns the resource, another student, a teacher (the
 * class's own teacher) and an admin. The owner runs last, so refused calls see untouched state.
 */
describe('permission matrix', () => {
  type Role = 'anonymous' | 'student' | 'other' | 'teacher' | 'admin';
  const ROLES: Role[] = ['anonymous', 'other', 'teacher', 'admin', 'student'];
  let cast: Record<Exclude<Role, 'anonymous'>, TestUser>;
  const headersOf = (role: Role) => (role === 'anonymous' ? {} : cast[role].headers);

  interface Row {
    name: string;
    expected: Record<Role, number>;
    /** Set-up for the row (run once), then the request per role. */
    prepare: (owner: TestUser) => Promise<(role: Role) => Parameters<TestContext['app']['inject']>[0]>;
  }

  const rows: Row[] = [
    {
      name: 'POST /api/enrolled',
      expected: { anonymous: 401, student: 201, other: 201, teacher: 409, admin: 201 },
      prepare: async () => {
        const cls = await createClass(ctx, teacher);
        return (role) => ({
          method: 'POST',
          url: '/api/enrolled',
          headers: headersOf(role),
          payload: { enrollId: cls.id },
        });
      },
    },
    {
      name: 'GET /api/enrolled/:email',
      expected: { anonymous: 401, student: 200, other: 403, teacher: 403, admin: 200 },
      prepare: async (owner) => (role) => ({
        url: `/api/enrolled/${encodeURIComponent(owner.email)}`,
        headers: headersOf(role),
      }),
    },
    {
      name: 'DELETE /api/enrolled/:id',
      expected: { anonymous: 401, student: 200, other: 403, teacher: 403, admin: 403 },
      prepare: async (owner) => {
        const id = await enrolOk(ctx, owner, (await createClass(ctx, teacher)).id);
        return (role) => ({ method: 'DELETE', url: `/api/enrolled/${id}`, headers: headersOf(role) });
      },
    },
    {
      // Everyone may start a payment, but only for their own cart: the others' carts are empty.
      name: 'POST /api/create-payment-intent',
      expected: { anonymous: 401, student: 200, other: 409, teacher: 409, admin: 409 },
      prepare: async (owner) => {
        await enrolOk(ctx, owner, (await createClass(ctx, teacher)).id);
        return (role) => ({
          method: 'POST',
          url: '/api/create-payment-intent',
          headers: headersOf(role),
          payload: { price: 1 },
        });
      },
    },
    {
      name: 'POST /api/test-gateway/confirm',
      expected: { anonymous: 401, student: 200, other: 403, teacher: 403, admin: 403 },
      prepare: async (owner) => {
        await enrolOk(ctx, owner, (await createClass(ctx, teacher)).id);
        const { clientSecret } = await createIntentOk(ctx, owner);
        return (role) => ({
          method: 'POST',
          url: '/api/test-gateway/confirm',
          headers: headersOf(role),
          payload: { clientSecret, ...card() },
        });
      },
    },
    {
      name: 'POST /api/test-gateway/authenticate',
      expected: { anonymous: 401, student: 200, other: 403, teacher: 403, admin: 403 },
      prepare: async (owner) => {
        await enrolOk(ctx, owner, (await createClass(ctx, teacher)).id);
        const { clientSecret } = await createIntentOk(ctx, owner);
        expect((await confirm(ctx, owner, clientSecret, card(CARDS.requiresAuthentication))).json().status).toBe(
          'requires_action',
        );
        return (role) => ({
          method: 'POST',
          url: '/api/test-gateway/authenticate',
          headers: headersOf(role),
          payload: { clientSecret, approve: true },
        });
      },
    },
    {
      // The charge is recorded when confirmed, so the owner's call answers 200 with that payment.
      name: 'POST /api/payments',
      expected: { anonymous: 401, student: 200, other: 403, teacher: 403, admin: 403 },
      prepare: async (owner) => {
        await enrolOk(ctx, owner, (await createClass(ctx, teacher)).id);
        const intent = await createIntentOk(ctx, owner);
        const transactionId = (await confirm(ctx, owner, intent.clientSecret)).json().transactionId;
        return (role) => ({
          method: 'POST',
          url: '/api/payments',
          headers: headersOf(role),
          payload: { transactionId, cartIds: intent.cartIds },
        });
      },
    },
    {
      name: 'GET /api/payments/:email',
      expected: { anonymous: 401, student: 200, other: 403, teacher: 403, admin: 200 },
      prepare: async (owner) => (role) => ({
        url: `/api/payments/${encodeURIComponent(owner.email)}`,
        headers: headersOf(role),
      }),
    },
    {
      name: 'GET /api/reviews',
      expected: { anonymous: 200, student: 200, other: 200, teacher: 200, admin: 200 },
      prepare: async () => (role) => ({ url: '/api/reviews', headers: headersOf(role) }),
    },
    {
      // Anyone signed in reads their own reviews only (reviews.test checks whose).
      name: 'GET /api/reviews/mine',
      expected: { anonymous: 401, student: 200, other: 200, teacher: 200, admin: 200 },
      prepare: async () => (role) => ({ url: '/api/reviews/mine', headers: headersOf(role) }),
    },
    {
      name: 'POST /api/reviews',
      expected: { anonymous: 401, student: 201, other: 409, teacher: 409, admin: 409 },
      prepare: async (owner) => {
        const cls = await createClass(ctx, teacher);
        await buy(ctx, owner, [cls.id]);
        return (role) => ({
          method: 'POST',
          url: '/api/reviews',
          headers: headersOf(role),
          payload: { classId: cls.id, rating: 4 },
        });
      },
    },
  ];

  for (const row of rows) {
    it(row.name, async () => {
      // Fresh students and admin per row, so one row's carts never leak into another's.
      const [owner, otherStudent, anAdmin] = await Promise.all([
        createUser(ctx, 'student'),
        createUser(ctx, 'student'),
        createUser(ctx, 'admin'),
      ]);
      cast = { student: owner, other: otherStudent, teacher, admin: anAdmin };
      const request = await row.prepare(owner);
      const actual = {} as Record<Role, number>;
      for (const role of ROLES) actual[role] = (await ctx.app.inject(request(role))).statusCode;
      expect(actual).toEqual(row.expected);
    });
  }
});
