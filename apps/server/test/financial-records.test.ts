import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { DELETED_ACCOUNT_EMAIL } from '../src/modules/users/users.service.ts';
import { buy, classCounters, createCaller, createClass, enrolOk, FAST_SIGNUP_ENV } from './commerce-fixtures.ts';
import { createTestApp, type TestContext } from './harness.ts';

/**
 * Financial records outlive accounts, cut from the person (DESIGN §4): were a student's payments
 * to cascade with the account, a teacher's revenue would shrink after the fact.
 */
describe('deleting a student who paid', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(FAST_SIGNUP_ENV);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('keeps their payments and paid enrollments, pseudonymised; teacher figures do not change', async () => {
    const admin = await createCaller(ctx, 'admin');
    const teacher = await createCaller(ctx, 'teacher');
    const student = await createCaller(ctx, 'student');
    const paidClass = await createClass(ctx, teacher, { priceCents: 2500 });
    const cartClass = await createClass(ctx, teacher, { priceCents: 1000 });
    const { paymentId } = await buy(ctx, student, [paidClass.id]);
    await enrolOk(ctx, student, cartClass.id);
    const review = await ctx.app.inject({
      method: 'POST',
      url: '/api/reviews',
      headers: student.headers,
      payload: { classId: paidClass.id, rating: 4, details: 'Good' },
    });
    expect(review.statusCode).toBeLessThan(300);

    const stats = () =>
      ctx.app.inject({ method: 'GET', url: `/api/classes/${paidClass.id}/stats`, headers: teacher.headers });
    const before = (await stats()).json();
    expect(before).toMatchObject({ paidStudents: 1, revenue: 25 });
    // A cart line is no student of the class (decision 003).
    expect(await classCounters(ctx, cartClass.id)).toMatchObject({ enrollmentCount: 0 });
    expect(await classCounters(ctx, paidClass.id)).toMatchObject({ enrollmentCount: 1 });

    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/api/users/${student.id}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ deletedCount: 1 });

    // The payment and its paid line are still there, without the person.
    const [payment] = await ctx.db.select().from(schema.payments).where(eq(schema.payments.id, paymentId));
    expect(payment).toMatchObject({ studentId: null, email: DELETED_ACCOUNT_EMAIL, amountCents: 2500 });
    const lines = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.paymentId, paymentId));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ studentId: null, studentEmail: DELETED_ACCOUNT_EMAIL, status: 'paid' });
    expect(JSON.stringify([payment, lines])).not.toContain(student.email);

    // The teacher's figures are what they were; the cart line and the review are gone with their counters.
    expect((await stats()).json()).toEqual(before);
    expect(await classCounters(ctx, cartClass.id)).toMatchObject({ enrollmentCount: 0 });
    expect(await classCounters(ctx, paidClass.id)).toMatchObject({ enrollmentCount: 1, ratingSum: 0, reviewCount: 0 });
    const pending = await ctx.db.select().from(schema.enrollments).where(eq(schema.enrollments.classId, cartClass.id));
    expect(pending).toHaveLength(0);

    // The account itself is gone: its token is refused and its e-mail can sign up again.
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/enrolled/${student.email}`, headers: student.headers }))
        .statusCode,
    ).toBe(401);
  });
});
