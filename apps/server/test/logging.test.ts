import { sql } from 'drizzle-orm';
import { format } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cookieHeader, createTestApp, createUser, tokenFor, type TestContext, type TestUser } from './harness.ts';

/**
 * No personal data in logs (hardening §6): the app's real logger, at debug level, writes into
 * `lines`; whatever fails, no line may carry the user's name, e-mail, phone, password or tokens.
 */
const ORIGIN = 'http://localhost:3000';
const lines: string[] = [];
/** What a library prints past the logger (better-call prints unexpected errors with console.error). */
const printed: string[] = [];
let ctx: TestContext;
let user: TestUser;
const NAME = 'Zebulon Quillfeather';
const PHONE = '+44 20 7946 0958';
const PASSWORD = 'Sup3r!Secret-pass';
const NEW_NAME = 'Ottoline Brackenridge';
const NEW_PHONE = '+33 1 70 36 82 91';

beforeAll(async () => {
  for (const method of ['error', 'warn', 'log', 'info'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      printed.push(format(...args));
    });
  }
  ctx = await createTestApp(
    { PUBLIC_URL: ORIGIN, LOG_LEVEL: 'debug' },
    { logger: true, logStream: { write: (line: string) => lines.push(line) } },
  );
  user = await createUser(ctx, 'student', { name: NAME, phone: PHONE, password: PASSWORD });
  // A database that refuses these writes, as a constraint or a broken migration would: the
  // failing statements carry the user's name, e-mail and phone as parameters.
  await ctx.db.execute(
    sql.raw(`create function refuse_write() returns trigger language plpgsql as $$
      begin raise exception 'refused for %', new.email using errcode = '23505', detail = 'Key (email)=(' || new.email || ') already exists.'; end $$`),
  );
  await ctx.db.execute(
    sql.raw(
      'create trigger refuse_teacher_requests before insert on teacher_requests for each row execute function refuse_write()',
    ),
  );
  await ctx.db.execute(
    sql.raw(
      'create trigger refuse_user_updates before update of name on users for each row execute function refuse_write()',
    ),
  );
});
afterAll(async () => {
  vi.restoreAllMocks();
  await ctx?.close();
});

/** Every way the user's data could appear in a line: as typed, lower-cased, URL-encoded, digits only. */
function secretsOf(extra: string[]): string[] {
  const digits = (phone: string) => phone.replace(/\D/g, '');
  const values = [user.email, NAME, PHONE, PASSWORD, NEW_NAME, NEW_PHONE, ...extra];
  return [
    ...values,
    ...values.map((v) => v.toLowerCase()),
    ...values.map(encodeURIComponent),
    digits(PHONE),
    digits(NEW_PHONE),
    user.email.split('@')[0]!,
    'Quillfeather',
    'Brackenridge',
  ];
}

describe('log lines', () => {
  it('log a failed query by its SQL and SQLSTATE, never its parameters, and no personal data anywhere', async () => {
    const token = await tokenFor(ctx, user);
    const sessionToken = user.cookie.split('=')[1]!.split(';')[0]!;

    // Our module: the insert of a teacher request (name, e-mail from the viewer) fails → 500.
    const request = await ctx.app.inject({
      method: 'POST',
      url: '/api/teachers/teacher-requests',
      headers: { authorization: `Bearer ${token}` },
      payload: { experience: 'beginner', title: 'Teaching', category: 'web-development' },
    });
    expect(request.statusCode).toBe(500);

    // better-auth's path: updating the profile fails in its adapter.
    const update = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/update-user',
      headers: { ...user.headers, origin: ORIGIN },
      payload: { name: NEW_NAME, phone: NEW_PHONE },
    });
    expect(update.statusCode).toBeGreaterThanOrEqual(400);

    // A wrong password, an e-mail in a path and in a query string.
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: ORIGIN },
      payload: { email: user.email, password: `${PASSWORD}x` },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: ORIGIN },
      payload: { email: user.email, password: PASSWORD },
    });
    expect(right.statusCode).toBe(200);
    const newSession = cookieHeader(right.headers['set-cookie']).split('=')[1]!.split(';')[0]!;
    await ctx.app.inject({ url: `/api/users/profile/${encodeURIComponent(user.email)}`, headers: user.headers });
    await ctx.app.inject({ url: `/api/users?q=${encodeURIComponent(NAME)}`, headers: user.headers });

    if (process.env.LOG_DUMP) process.stdout.write(lines.join(''));
    const text = lines.join('') + printed.join('\n');
    expect(lines.length).toBeGreaterThan(10);
    // The failure is logged usefully: the statement and PostgreSQL's code.
    const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.err?.sql);
    expect(failure?.err).toMatchObject({
      sql: expect.stringMatching(/insert into "teacher_requests"/i),
      sqlState: '23505',
    });
    for (const secret of secretsOf([token, sessionToken, newSession, decodeURIComponent(sessionToken)])) {
      expect(text, `log contains ${secret}`).not.toContain(secret);
    }
  });
});
