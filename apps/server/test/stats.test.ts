import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { ClassRosterEntry } from '@skillhive/shared/contracts/enrollments';
import { DELETED_STUDENT_NAME, STATS_MONTHS } from '@skillhive/shared/rules/constants';
import type { AdminStats, TeacherStats } from '@skillhive/shared/contracts/stats';
import { createTestGateway, TEST_CARDS } from '../src/modules/gateways/test-gateway.ts';
import { createTestApp, rawRows, type TestContext } from './harness.ts';
import {
  CARDS,
  FAST_SIGNUP_ENV,
  buy,
  card,
  confirm,
  createCaller,
  createClass,
  createIntentOk,
  enrolOk,
  expectBadPagingRefused,
  recordPayment,
  type TestClass,
} from './commerce-fixtures.ts';
import { prng } from './seeded-random.ts';

/** A signed-up user calling with a Bearer token (createCaller). */
type Caller = Awaited<ReturnType<typeof createCaller>>;

/**
 * Earnings and revenue from the server: GET /api/teachers/me/stats,
 * GET /api/admin/stats and GET /api/teachers/me/classes/:id/roster. Who may call them, what bad
 * input gets, and a reconciliation: students buy random carts through the API, classes are
 * archived, an account is deleted, and the answers equal sums the test writes in its own SQL.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp(FAST_SIGNUP_ENV);
});
afterAll(async () => {
  await ctx?.close();
});

type Inject = TestContext['app']['inject'];
type Response = Awaited<ReturnType<Inject>>;

const get = (caller: Pick<Caller, 'headers'> | null, url: string): Promise<Response> =>
  ctx.app.inject({ method: 'GET', url, headers: caller?.headers ?? {} });
const rosterUrl = (classId: string, query = '') => `/api/teachers/me/classes/${classId}/roster${query}`;

function rows<T = Record<string, unknown>>(query: Parameters<typeof rawRows>[1]): Promise<T[]> {
  return rawRows<T>(ctx.db, query);
}

describe('permission matrix (every new endpoint × anonymous, student, its teacher, another teacher, admin, admin who teaches)', () => {
  type Role = 'anonymous' | 'student' | 'owner' | 'otherTeacher' | 'admin' | 'adminTeacher';
  const cast = {} as Record<Exclude<Role, 'anonymous'>, Caller>;
  let owned: TestClass;
  const callerOf = (role: Role) => (role === 'anonymous' ? null : cast[role]);

  beforeAll(async () => {
    cast.student = await createCaller(ctx, 'student');
    cast.owner = await createCaller(ctx, 'teacher');
    cast.otherTeacher = await createCaller(ctx, 'teacher');
    cast.admin = await createCaller(ctx, 'admin');
    cast.adminTeacher = await createCaller(ctx, 'admin-teacher');
    owned = await createClass(ctx, cast.owner, { priceCents: 4250 });
    await buy(ctx, cast.student, [owned.id]);
  });

  // Decision: /api/teachers/me/* answers for the caller's own teaching only. An admin is no
  // teacher of someone else's class: without the teacher flag 403, with it 404 like any teacher.
  const endpoints: { name: string; url: () => string; expected: Record<Role, number> }[] = [
    {
      name: 'GET /api/teachers/me/stats',
      url: () => '/api/teachers/me/stats',
      expected: { anonymous: 401, student: 403, owner: 200, otherTeacher: 200, admin: 403, adminTeacher: 200 },
    },
    {
      name: 'GET /api/admin/stats',
      url: () => '/api/admin/stats',
      expected: { anonymous: 401, student: 403, owner: 403, otherTeacher: 403, admin: 200, adminTeacher: 200 },
    },
    {
      name: 'GET /api/teachers/me/classes/:id/roster',
      url: () => rosterUrl(owned.id),
      expected: { anonymous: 401, student: 403, owner: 200, otherTeacher: 404, admin: 403, adminTeacher: 404 },
    },
  ];
  const cells = endpoints.flatMap((e) =>
    (Object.keys(e.expected) as Role[]).map((role) => ({ ...e, role, status: e.expected[role] })),
  );
  const CODES: Record<number, string> = { 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found' };

  it.each(cells)('$name as $role → $status', async ({ url, role, status }) => {
    const res = await get(callerOf(role), url());
    expect(res.statusCode).toBe(status);
    if (status >= 400) expect(res.json().error.code).toBe(CODES[status]);
  });

  it("shows a teacher only their own classes' figures, their share after the platform's fee", async () => {
    const mine = (await get(cast.owner, '/api/teachers/me/stats')).json() as TeacherStats;
    // $42.50 at the default 20 % fee: $8.50 to the platform, $34.00 earned, held for the refund window.
    expect(mine).toMatchObject({
      totalCents: 3400,
      total: 34,
      balances: { pendingCents: 3400, availableCents: 0, frozenCents: 0, paidCents: 0 },
      paidEnrollments: 1,
      students: 1,
    });
    expect(mine.classes).toEqual([
      {
        classId: owned.id,
        title: owned.title,
        status: 'accepted',
        paidEnrollments: 1,
        revenueCents: 3400,
        revenue: 34,
      },
    ]);
    const other = (await get(cast.otherTeacher, '/api/teachers/me/stats')).json() as TeacherStats;
    expect(other).toMatchObject({
      totalCents: 0,
      total: 0,
      balances: { pendingCents: 0, availableCents: 0, frozenCents: 0, paidCents: 0 },
      paidEnrollments: 0,
      students: 0,
      classes: [],
    });
    expect(other.byMonth).toHaveLength(STATS_MONTHS);
    expect(other.byMonth.every((m) => m.revenueCents === 0 && m.paidEnrollments === 0)).toBe(true);
  });

  it('answers a roster with the X-Total-Count of the list', async () => {
    const res = await get(cast.owner, rosterUrl(owned.id));
    expect(res.headers['x-total-count']).toBe('1');
    const [entry] = res.json() as ClassRosterEntry[];
    expect(entry).toMatchObject({
      studentName: cast.student.name,
      studentEmail: cast.student.email,
      status: 'paid',
      priceCents: 4250,
      price: 42.5,
    });
    expect(Date.parse(entry!.paidAt!)).toBeGreaterThanOrEqual(Date.parse(entry!.enrolledAt));
  });
});

describe('bad input', () => {
  let teacher: Caller;
  let cls: TestClass;
  beforeAll(async () => {
    teacher = await createCaller(ctx, 'teacher');
    cls = await createClass(ctx, teacher);
  });

  it('answers 404 for a roster of an unknown class or an id that is not one, 400 for an id too long', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'abc', '1%20or%201=1', 'x'.repeat(64)]) {
      const res = await get(teacher, rosterUrl(id));
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    expect((await get(teacher, rosterUrl('x'.repeat(65)))).statusCode).toBe(400);
  });

  it('answers 400 with the field for bad paging', async () => {
    await expectBadPagingRefused((query) => get(teacher, rosterUrl(cls.id, query)));
  });

  it('pages a roster newest first, beyond the last page empty with the total kept', async () => {
    const students = [await createCaller(ctx, 'student'), await createCaller(ctx, 'student')];
    await buy(ctx, students[0]!, [cls.id]);
    await enrolOk(ctx, students[1]!, cls.id);
    const first = await get(teacher, rosterUrl(cls.id, '?limit=1'));
    expect(first.headers['x-total-count']).toBe('2');
    expect((first.json() as ClassRosterEntry[]).map((e) => [e.studentEmail, e.status, e.paidAt])).toEqual([
      [students[1]!.email, 'pending', null],
    ]);
    const second = await get(teacher, rosterUrl(cls.id, '?limit=1&page=2'));
    expect((second.json() as ClassRosterEntry[]).map((e) => [e.studentEmail, e.status])).toEqual([
      [students[0]!.email, 'paid'],
    ]);
    const beyond = await get(teacher, rosterUrl(cls.id, '?limit=1&page=3'));
    expect(beyond.json()).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('2');
  });

  it('ignores a query string on the stats', async () => {
    expect((await get(teacher, '/api/teachers/me/stats?teacherId=someone-else')).statusCode).toBe(200);
  });
});

/**
 * The teacher and admin stats equal an independent SQL sum: the figures reconcile to the cent.
 * STATS_STUDENTS tunes the size (default 30), STATS_SEED replays a run.
 */
const STUDENTS = Number(process.env.STATS_STUDENTS ?? 30);
const SEED = Number(process.env.STATS_SEED ?? Date.now() % 1_000_000);

describe(`reconciliation of the stats (${STUDENTS} students, seed ${SEED})`, () => {
  it(
    "equals the ledger's sums and the paid lines' counts, per teacher, per class and per month, and the payments",
    { timeout: 180_000 },
    async () => {
      const random = prng(SEED);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
      const admin = await createCaller(ctx, 'admin');
      const teachers: Caller[] = [];
      for (let i = 0; i < 3; i++) teachers.push(await createCaller(ctx, i === 2 ? 'admin-teacher' : 'teacher'));
      const classes: TestClass[] = [];
      for (let i = 0; i < 12; i++) {
        // Odd cents on purpose: 0.50 to 250.00.
        classes.push(await createClass(ctx, teachers[i % 3]!, { priceCents: 50 + Math.floor(random() * 24_951) }));
      }
      const teacherOf = new Map(classes.map((c) => [c.id, c.teacherId]));

      // What the scripts paid, per class, and who paid whom.
      const paidCents = new Map<string, number>();
      const paidLines = new Map<string, number>();
      const payersOf = new Map<string, Set<string>>();
      const boughtBy = new Map<string, string[]>();
      const addPaid = (student: Caller, classIds: string[]) => {
        boughtBy.set(student.id, [...(boughtBy.get(student.id) ?? []), ...classIds]);
        for (const id of classIds) {
          const cls = classes.find((c) => c.id === id)!;
          paidCents.set(id, (paidCents.get(id) ?? 0) + cls.priceCents);
          paidLines.set(id, (paidLines.get(id) ?? 0) + 1);
          const teacherId = teacherOf.get(id)!;
          payersOf.set(teacherId, (payersOf.get(teacherId) ?? new Set()).add(student.id));
        }
      };

      const buyers: Caller[] = [];
      for (let i = 0; i < STUDENTS; i++) {
        const student = await createCaller(ctx, 'student');
        const behaviour = random();
        const cart = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(classes).id))];
        if (behaviour < 0.15) {
          // Leaves the cart unpaid.
          for (const id of cart) await enrolOk(ctx, student, id);
        } else if (behaviour < 0.25) {
          // Declined, and gives up.
          for (const id of cart) await enrolOk(ctx, student, id);
          const intent = await createIntentOk(ctx, student);
          expect((await confirm(ctx, student, intent.clientSecret, card(CARDS.declined))).statusCode).toBe(402);
        } else {
          await buy(ctx, student, cart);
          addPaid(student, cart);
          buyers.push(student);
          // Some come back for a second cart of classes they do not have yet.
          if (random() < 0.3) {
            const more = classes.map((c) => c.id).filter((id) => !cart.includes(id));
            const second = [pick(more)];
            await buy(ctx, student, second);
            addPaid(student, second);
          }
        }
      }

      // A charge that cannot be recorded (a line removed after paying) is refunded whole: it earns nothing.
      const refunded = await createCaller(ctx, 'student');
      const lines = [await enrolOk(ctx, refunded, classes[0]!.id), await enrolOk(ctx, refunded, classes[1]!.id)];
      const intent = await createIntentOk(ctx, refunded);
      // Charged at the gateway as a browser closed before our confirm step answered would be.
      const gateway = createTestGateway(ctx.db);
      const stored = (await gateway.findIntentByClientSecret(intent.clientSecret))!;
      expect(await gateway.confirmCard(stored.id, TEST_CARDS.succeeds)).toEqual({ status: 'succeeded' });
      const removed = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/enrolled/${lines[1]}`,
        headers: refunded.headers,
      });
      expect(removed.statusCode).toBe(200);
      const recorded = await recordPayment(ctx, refunded, { transactionId: stored.id, cartIds: intent.cartIds });
      expect(recorded.statusCode).toBe(409);
      const [refund] = await rows<{ status: string }>(
        sql`select status from payment_intents where client_secret = ${intent.clientSecret}`,
      );
      expect(['refund_pending', 'refunded']).toContain(refund!.status);

      // Classes with paid students are archived by their teachers; one nobody paid for is deleted.
      const paidClassIds = classes.filter((c) => (paidLines.get(c.id) ?? 0) > 0);
      const archived = paidClassIds.slice(0, 3);
      for (const cls of archived) {
        const teacher = teachers.find((t) => t.id === cls.teacherId)!;
        const res = await ctx.app.inject({ method: 'DELETE', url: `/api/classes/${cls.id}`, headers: teacher.headers });
        expect(res.statusCode).toBe(200);
      }
      const unsold = await createClass(ctx, teachers[0]!, { priceCents: 999 });
      expect(
        (await ctx.app.inject({ method: 'DELETE', url: `/api/classes/${unsold.id}`, headers: teachers[0]!.headers }))
          .statusCode,
      ).toBe(200);
      for (const cls of archived) {
        const [row] = await rows<{ status: string }>(
          sql`select status::text as status from classes where id = ${cls.id}`,
        );
        expect(row!.status).toBe('archived');
      }

      // An admin deletes a buyer's account: the paid lines stay, cut from the person (DESIGN §4).
      const gone = buyers[0]!;
      const deleted = await ctx.app.inject({ method: 'DELETE', url: `/api/users/${gone.id}`, headers: admin.headers });
      expect(deleted.statusCode).toBe(200);
      for (const set of payersOf.values()) set.delete(gone.id);
      const orphaned = await rows<{ n: string }>(
        sql`select count(*) as n from enrollments where student_id is null and status = 'paid'`,
      );
      expect(Number(orphaned[0]!.n)).toBe(boughtBy.get(gone.id)!.length);
      // Its teacher's roster still lists the line, without the person.
      const goneClass = classes.find((c) => c.id === boughtBy.get(gone.id)![0])!;
      const roster = await get(
        teachers.find((t) => t.id === goneClass.teacherId)!,
        rosterUrl(goneClass.id, '?limit=100'),
      );
      expect(roster.statusCode).toBe(200);
      expect((roster.json() as ClassRosterEntry[]).filter((e) => e.studentName === DELETED_STUDENT_NAME)).toMatchObject(
        [{ studentEmail: 'deleted-account', status: 'paid', priceCents: goneClass.priceCents }],
      );

      // Spread the payments over the past: some a few months back, a few more than a year ago.
      const paid = await rows<{ id: string }>(sql`select id from enrollments where status = 'paid' order by id`);
      for (const [index, line] of paid.entries()) {
        const r = random();
        const monthsBack =
          index === 0 ? 13 : r < 0.5 ? 0 : r < 0.9 ? 1 + Math.floor(random() * 11) : 12 + Math.floor(random() * 6);
        if (monthsBack === 0) continue;
        await ctx.db.execute(sql`
        update enrollments set paid_at = paid_at - make_interval(months => ${monthsBack}),
          created_at = created_at - make_interval(months => ${monthsBack})
        where id = ${line.id}`);
        // The ledger's line of the sale, written with the payment, moves back with it.
        await ctx.db.execute(sql`
        update earning_lines set paid_at = paid_at - make_interval(months => ${monthsBack})
        where enrollment_id = ${line.id}`);
      }

      // --- Each teacher's answer against the test's own SQL and the scripts' bookkeeping -------------
      let teacherTotal = 0;
      for (const teacher of teachers) {
        const res = await get(teacher, '/api/teachers/me/stats');
        expect(res.statusCode).toBe(200);
        const stats = res.json() as TeacherStats;

        // Per class: paid lines from the enrollments, earnings from the ledger's lines of the class,
        // whose gross is what the scripts paid.
        const perClass = await rows<{ id: string; status: string; paid: number; earned: number; gross: number }>(sql`
        select c.id, c.status::text as status,
          (select count(*)::int from enrollments e where e.class_id = c.id and e.status = 'paid') as paid,
          (select coalesce(sum(l.share_cents - l.clawback_cents), 0)::int from earning_lines l
            where l.class_id = c.id) as earned,
          (select coalesce(sum(l.gross_cents), 0)::int from earning_lines l
            where l.class_id = c.id and l.refunded_at is null) as gross
        from classes c where c.teacher_id = ${teacher.id}`);
        expect(stats.classes.map((c) => [c.classId, c.status, c.paidEnrollments, c.revenueCents]).sort()).toEqual(
          perClass.map((c) => [c.id, c.status, c.paid, c.earned]).sort(),
        );
        for (const c of stats.classes) {
          expect(perClass.find((row) => row.id === c.classId)!.gross, c.title).toBe(paidCents.get(c.classId) ?? 0);
          expect(c.paidEnrollments, c.title).toBe(paidLines.get(c.classId) ?? 0);
          expect(c.revenue).toBe(c.revenueCents / 100);
          // The platform keeps its fee: a teacher earns less than the students paid for a class that sold.
          if (c.paidEnrollments > 0) expect(c.revenueCents).toBeLessThan(paidCents.get(c.classId)!);
        }

        // The total and the buckets are the teacher's journal.
        const [journal] = await rows<{ p: number; a: number; f: number; d: number }>(sql`
        select coalesce(sum(pending_cents), 0)::int p, coalesce(sum(available_cents), 0)::int a,
          coalesce(sum(frozen_cents), 0)::int f, coalesce(sum(paid_cents), 0)::int d
        from ledger_entries where teacher_id = ${teacher.id}`);
        expect(stats.balances).toEqual({
          pendingCents: journal!.p,
          availableCents: journal!.a,
          frozenCents: journal!.f,
          paidCents: journal!.d,
        });
        expect(stats.totalCents).toBe(journal!.p + journal!.a + journal!.f + journal!.d);
        expect(stats.total).toBe(stats.totalCents / 100);
        expect(stats.totalCents).toBe(stats.classes.reduce((a, c) => a + c.revenueCents, 0));
        const [sum] = await rows<{ lines: number; students: number }>(sql`
        select count(*)::int as lines, count(distinct e.student_id)::int as students
        from classes c join enrollments e on e.class_id = c.id where c.teacher_id = ${teacher.id} and e.status = 'paid'`);
        expect(stats.paidEnrollments).toBe(sum!.lines);
        expect(stats.students).toBe(sum!.students);
        expect(stats.students).toBe(payersOf.get(teacher.id)?.size ?? 0);
        teacherTotal += stats.totalCents;

        const months = await rows<{ month: string; cents: number; lines: number }>(sql`
        select coalesce(m.month, n.month) as month, coalesce(m.cents, 0) as cents, coalesce(n.lines, 0) as lines
        from (select to_char(paid_at at time zone 'UTC', 'YYYY-MM') as month,
                sum(share_cents - clawback_cents)::int as cents
              from earning_lines where teacher_id = ${teacher.id} group by 1) m
        full join (select to_char(e.paid_at at time zone 'UTC', 'YYYY-MM') as month, count(*)::int as lines
              from enrollments e join classes c on c.id = e.class_id
              where c.teacher_id = ${teacher.id} and e.status = 'paid' group by 1) n on n.month = m.month`);
        expectMonths(stats.byMonth, months);
      }

      // --- The admin's answer ---------------------------------------------------------------------
      const res = await get(admin, '/api/admin/stats');
      expect(res.statusCode).toBe(200);
      const stats = res.json() as AdminStats;
      const [books] = await rows<{ payments: number; lines: number; gross: number; fees: number; earned: number }>(sql`
      select (select coalesce(sum(amount_cents), 0)::int from payments where status = 'succeeded') as payments,
        (select count(*)::int from enrollments where status = 'paid') as lines,
        (select coalesce(sum(gross_cents), 0)::int from earning_lines where refunded_at is null) as gross,
        (select coalesce(sum(fee_cents), 0)::int from earning_lines where refunded_at is null) as fees,
        (select coalesce(sum(shares_cents - clawbacks_cents), 0)::int from teacher_balances) as earned`);
      const scripted = [...paidCents.values()].reduce((a, b) => a + b, 0);
      // The matrix and bad-input suites above bought too; the totals cover the whole platform.
      expect(stats.totalCents).toBe(books!.gross);
      // Nothing was refunded after payment here: the revenue is every payment.
      expect(stats.totalCents).toBe(books!.payments);
      expect(stats.total).toBe(books!.gross / 100);
      expect(stats.feeCents).toBe(books!.fees);
      expect(stats.fee).toBe(books!.fees / 100);
      // Revenue = the platform's fee + what every teacher earned.
      expect(stats.totalCents - stats.feeCents).toBe(books!.earned);
      expect(stats.paidEnrollments).toBe(books!.lines);
      expect(teacherTotal).toBeLessThan(scripted);
      expect(stats.totalCents).toBeGreaterThanOrEqual(scripted);

      const roles = await rows<{ role: string; n: string }>(sql`
      select case when is_admin then 'admin' when is_teacher then 'teacher' else 'student' end as role,
        count(*) as n
      from users group by 1`);
      const byRole = Object.fromEntries(roles.map((r) => [r.role, Number(r.n)]));
      expect(stats.users).toEqual({
        total: roles.reduce((a, r) => a + Number(r.n), 0),
        admins: byRole.admin ?? 0,
        teachers: byRole.teacher ?? 0,
        students: byRole.student ?? 0,
      });
      const classStatuses = await rows<{ status: string; n: string }>(
        sql`select status::text as status, count(*) as n from classes group by 1`,
      );
      const byStatus = Object.fromEntries(classStatuses.map((r) => [r.status, Number(r.n)]));
      expect(stats.classes).toEqual({
        total: classStatuses.reduce((a, r) => a + Number(r.n), 0),
        pending: byStatus.pending ?? 0,
        accepted: byStatus.accepted ?? 0,
        rejected: byStatus.rejected ?? 0,
        archived: byStatus.archived ?? 0,
        hidden: byStatus.hidden ?? 0,
      });
      expect(stats.classes.archived).toBeGreaterThanOrEqual(archived.length);

      const months = await rows<{ month: string; cents: number; lines: number; fees: number }>(sql`
      select coalesce(m.month, n.month) as month, coalesce(m.cents, 0) as cents, coalesce(m.fees, 0) as fees,
        coalesce(n.lines, 0) as lines
      from (select to_char(paid_at at time zone 'UTC', 'YYYY-MM') as month,
              (sum(gross_cents) filter (where refunded_at is null))::int as cents,
              (sum(fee_cents) filter (where refunded_at is null))::int as fees
            from earning_lines group by 1) m
      full join (select to_char(paid_at at time zone 'UTC', 'YYYY-MM') as month, count(*)::int as lines
            from enrollments where status = 'paid' group by 1) n on n.month = m.month`);
      expectMonths(stats.byMonth, months);
      for (const m of stats.byMonth) {
        expect(m.feeCents, m.month).toBe(months.find((row) => row.month === m.month)?.fees ?? 0);
        expect(m.fee).toBe(m.feeCents / 100);
      }
      // A line paid more than a year ago is in the total, not in the months.
      expect(stats.byMonth.reduce((a, m) => a + m.revenueCents, 0)).toBeLessThan(stats.totalCents);
      expect(stats.byMonth.filter((m) => m.revenueCents > 0).length).toBeGreaterThan(1);
    },
  );
});

/**
 * byMonth is the last STATS_MONTHS calendar months (UTC), oldest first, ending with this one, and
 * each equals the SQL sum of its month; older months are in the totals only.
 */
function expectMonths(
  byMonth: { month: string; revenueCents: number; revenue: number; paidEnrollments: number }[],
  sums: { month: string; cents: number; lines: number }[],
): void {
  const now = new Date();
  const expected = Array.from({ length: STATS_MONTHS }, (_, i) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (STATS_MONTHS - 1) + i, 1)).toISOString().slice(0, 7),
  );
  expect(byMonth.map((m) => m.month)).toEqual(expected);
  const sumOf = new Map(sums.map((s) => [s.month, s]));
  for (const m of byMonth) {
    expect(m.revenueCents, m.month).toBe(Number(sumOf.get(m.month)?.cents ?? 0));
    expect(m.paidEnrollments, m.month).toBe(Number(sumOf.get(m.month)?.lines ?? 0));
    expect(m.revenue).toBe(m.revenueCents / 100);
  }
}

describe("the homes' money moves as the ledger moves", () => {
  it('a refund takes the line off both homes as it claws it back in the journal; a payout moves the buckets, not the total', async () => {
    const admin = await createCaller(ctx, 'admin');
    const teacher = await createCaller(ctx, 'teacher');
    const cls = await createClass(ctx, teacher, { priceCents: 7777 });
    const buyers = [await createCaller(ctx, 'student'), await createCaller(ctx, 'student')];
    const payments = [];
    for (const buyer of buyers) payments.push(await buy(ctx, buyer, [cls.id]));

    const journalOf = async () => {
      const [row] = await rows<{ p: number; a: number; f: number; d: number }>(sql`
        select coalesce(sum(pending_cents), 0)::int p, coalesce(sum(available_cents), 0)::int a,
          coalesce(sum(frozen_cents), 0)::int f, coalesce(sum(paid_cents), 0)::int d
        from ledger_entries where teacher_id = ${teacher.id}`);
      return {
        total: row!.p + row!.a + row!.f + row!.d,
        balances: { pendingCents: row!.p, availableCents: row!.a, frozenCents: row!.f, paidCents: row!.d },
      };
    };
    const read = async () => ({
      teacher: (await get(teacher, '/api/teachers/me/stats')).json() as TeacherStats,
      admin: (await get(admin, '/api/admin/stats')).json() as AdminStats,
      journal: await journalOf(),
    });
    const thisMonth = <T extends { month: string }>(months: T[]) => months.at(-1)!;

    const before = await read();
    const [line] = await rows<{ enrollment_id: string; gross: number; fee: number; share: number }>(sql`
      select enrollment_id, gross_cents gross, fee_cents fee, share_cents share from earning_lines
      where payment_id = ${payments[0]!.paymentId}`);
    expect(line!.gross).toBe(7777);
    expect(before.teacher.totalCents).toBe(2 * line!.share);
    expect(before.teacher.totalCents).toBe(before.journal.total);
    expect(before.teacher.balances).toEqual(before.journal.balances);

    const refunded = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/payments/${payments[0]!.paymentId}/refunds`,
      headers: admin.headers,
      payload: { reason: 'Changed my mind', enrollmentId: line!.enrollment_id },
    });
    expect(refunded.statusCode).toBe(200);
    const after = await read();
    // The teacher's home moved by exactly what the journal moved: the line's share clawed back.
    expect(after.journal.total - before.journal.total).toBe(-line!.share);
    expect(after.teacher.totalCents - before.teacher.totalCents).toBe(after.journal.total - before.journal.total);
    expect(after.teacher.balances).toEqual(after.journal.balances);
    expect(after.teacher.classes[0]!.revenueCents - before.teacher.classes[0]!.revenueCents).toBe(-line!.share);
    expect(thisMonth(after.teacher.byMonth).revenueCents - thisMonth(before.teacher.byMonth).revenueCents).toBe(
      -line!.share,
    );
    expect(after.teacher.paidEnrollments).toBe(before.teacher.paidEnrollments - 1);
    // The admin's: the line's price given back, its fee with it.
    expect(after.admin.totalCents - before.admin.totalCents).toBe(-line!.gross);
    expect(after.admin.feeCents - before.admin.feeCents).toBe(-line!.fee);
    expect(thisMonth(after.admin.byMonth).revenueCents - thisMonth(before.admin.byMonth).revenueCents).toBe(
      -line!.gross,
    );
    expect(thisMonth(after.admin.byMonth).feeCents - thisMonth(before.admin.byMonth).feeCents).toBe(-line!.fee);
    expect(after.admin.paidEnrollments).toBe(before.admin.paidEnrollments - 1);

    // The refund window closes (the money-out job's release, on a clock past it) and the teacher is
    // paid (by a manual payout: no connected account): money moves between buckets, the total stays.
    const { releaseDue } = await import('../src/modules/earnings/ledger.ts');
    await releaseDue(ctx.db, new Date(Date.now() + 30 * 86_400_000));
    const run = await ctx.app.inject({ method: 'POST', url: '/api/admin/payouts/run', headers: admin.headers });
    expect(run.statusCode).toBe(200);
    const paid = await read();
    expect(paid.teacher.totalCents).toBe(after.teacher.totalCents);
    expect(paid.teacher.balances).toEqual({
      pendingCents: 0,
      availableCents: 0,
      frozenCents: 0,
      paidCents: after.teacher.totalCents,
    });
    expect(paid.teacher.balances).toEqual(paid.journal.balances);
    expect(paid.admin.totalCents).toBe(after.admin.totalCents);
  });
});
