import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { hashPassword, needsRehash } from '../src/modules/auth/password.ts';
import { createTestApp, signUp, TEST_PASSWORD, type TestContext } from './harness.ts';

/** Decision 013: hashes stored in base64url keep working and are rewritten at the next sign-in. */
describe('a password hash in the old encoding', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const storedHash = async (userId: string) => {
    const [row] = await ctx.db
      .select({ password: schema.accounts.password })
      .from(schema.accounts)
      .where(and(eq(schema.accounts.userId, userId), eq(schema.accounts.providerId, 'credential')));
    return row!.password!;
  };

  it('signs in, and is stored in the PHC B64 encoding afterwards', async () => {
    const user = await signUp(ctx);
    let hash = '';
    while (!/[+/]/.test(hash)) hash = await hashPassword(TEST_PASSWORD);
    const legacy = hash.replace(/\+/g, '-').replace(/\//g, '_');
    await ctx.db.update(schema.accounts).set({ password: legacy }).where(eq(schema.accounts.userId, user.id));

    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: user.email, password: 'Wrong#Pass1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(await storedHash(user.id)).toBe(legacy);

    const right = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(right.statusCode).toBe(200);
    const rewritten = await storedHash(user.id);
    expect(rewritten).not.toBe(legacy);
    expect(needsRehash(rewritten)).toBe(false);

    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(again.statusCode).toBe(200);
  });
});
