import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { schema } from '../src/db/client.ts';
import { createTestApp, createUser, rawRows, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

describe('foundation', () => {
  it('migrates an empty database to every table', async () => {
    const result = await rawRows<{ table_name: string }>(
      ctx.db,
      sql`select table_name from information_schema.tables where table_schema = current_schema() order by table_name`,
    );
    const tables = result.map((r) => r.table_name);
    for (const t of [
      'users',
      'sessions',
      'accounts',
      'verifications',
      'teacher_requests',
      'classes',
      'enrollments',
      'payments',
      'reviews',
      'uploads',
      'audit_log',
    ]) {
      expect(tables).toContain(t);
    }
  });

  it('answers liveness and readiness', async () => {
    expect((await ctx.app.inject('/api/health')).json()).toEqual({ status: 'ok' });
    expect((await ctx.app.inject('/api/ready')).json()).toMatchObject({
      status: 'ready',
      checks: { database: 'ok', storage: 'ok' },
    });
  });

  it('gives malformed JSON a 400 in the standard error shape', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/jwt',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation_error');
    expect(typeof body.error.message).toBe('string');
    expect(body.requestId).toBe(res.headers['x-request-id']);
  });

  it('gives unknown API paths a JSON 404', async () => {
    const res = await ctx.app.inject('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().error.code).toBe('not_found');
  });

  it('serves the OpenAPI document and UI', async () => {
    const ui = await ctx.app.inject('/api/docs/');
    expect(ui.statusCode).toBe(200);
    const spec = await ctx.app.inject('/api/docs/json');
    expect(spec.json().openapi).toMatch(/^3\./);
  });

  it('sets security headers with a strict CSP', async () => {
    const res = await ctx.app.inject('/api/health');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('constraints', () => {
  it('rejects a second pending teacher request for one user', async () => {
    const user = await createUser(ctx, 'student');
    const row = {
      userId: user.id,
      name: 'n',
      email: user.email,
      experience: 'beginner' as const,
      title: 't',
      category: 'data-science' as const,
    };
    await ctx.db.insert(schema.teacherRequests).values(row);
    await expect(ctx.db.insert(schema.teacherRequests).values(row)).rejects.toThrow();
    // A decided request does not block a new one.
    await ctx.db.update(schema.teacherRequests).set({ status: 'rejected' });
    await expect(ctx.db.insert(schema.teacherRequests).values(row)).resolves.toBeDefined();
  });

  it('rejects prices outside 0.50–10 000, duplicate enrollments and duplicate transaction ids', async () => {
    const teacher = await createUser(ctx, 'teacher');
    const student = await createUser(ctx, 'student');
    await ctx.db
      .insert(schema.uploads)
      .values({ key: 'a'.repeat(64) + '.webp', contentType: 'image/webp', width: 1, height: 1, bytes: 1 });
    const base = {
      teacherId: teacher.id,
      teacherName: 'T',
      teacherEmail: teacher.email,
      title: 'x',
      description: 'y',
      imageKey: 'a'.repeat(64) + '.webp',
      category: 'data-science' as const,
    };
    await expect(ctx.db.insert(schema.classes).values({ ...base, priceCents: 49 })).rejects.toThrow();
    await expect(ctx.db.insert(schema.classes).values({ ...base, priceCents: 1_000_001 })).rejects.toThrow();
    const [cls] = await ctx.db
      .insert(schema.classes)
      .values({ ...base, priceCents: 1000 })
      .returning();
    const enrollment = {
      classId: cls!.id,
      studentId: student.id,
      studentEmail: student.email,
      teacherName: 'T',
      title: 'x',
      imageKey: base.imageKey,
      description: 'y',
      priceCents: 1000,
    };
    await ctx.db.insert(schema.enrollments).values(enrollment);
    await expect(ctx.db.insert(schema.enrollments).values(enrollment)).rejects.toThrow();
    const payment = {
      studentId: student.id,
      email: student.email,
      amountCents: 1000,
      gateway: 'test',
      transactionId: 'pi_dup',
      cartIds: [],
      menuItemIds: [],
    };
    await ctx.db.insert(schema.payments).values(payment);
    await expect(ctx.db.insert(schema.payments).values(payment)).rejects.toThrow();
    await expect(
      ctx.db.insert(schema.reviews).values({ classId: cls!.id, studentId: student.id, rating: 6 }),
    ).rejects.toThrow();
  });
});
